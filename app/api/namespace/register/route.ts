import { registerNamespacePaid } from "@/lib/domain/namespace/register-namespace";
import { readJsonBody } from "@/lib/http/body";
import { handle } from "@/lib/http/handler";
import { parseInput } from "@/lib/http/validate";
import { registerNamespaceSchema } from "@/lib/schemas/namespace";

export const POST = handle(async (request) => {
  const input = parseInput(registerNamespaceSchema, await readJsonBody(request));
  return registerNamespacePaid(request, input);
});
