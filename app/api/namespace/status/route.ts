import { requireSignIn } from "@/lib/auth/siwx";
import { listSubmissions } from "@/lib/domain/feedback/list-submissions";
import { handle, json } from "@/lib/http/handler";
import { parseInput, queryOf } from "@/lib/http/validate";
import { statusQuerySchema } from "@/lib/schemas/list";

export const GET = handle(async (request) => {
  const query = parseInput(statusQuerySchema, queryOf(request));
  const wallet = await requireSignIn(request);
  return json(await listSubmissions(wallet.address, query));
});
