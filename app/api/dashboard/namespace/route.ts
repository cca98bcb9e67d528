import { limitedSignIn } from "@/lib/auth/limited-sign-in";
import { namespaceAccess } from "@/lib/domain/namespace/namespace-access";
import { handle, json } from "@/lib/http/handler";
import { parseInput, queryOf } from "@/lib/http/validate";
import { countsQuerySchema } from "@/lib/schemas/list";

/** Whether the signed-in wallet owns a namespace, or it is unregistered, or someone else's (always 200). */
export const GET = handle(async (request) => {
  const { namespace } = parseInput(countsQuerySchema, queryOf(request));
  const wallet = await limitedSignIn(request);
  return json(await namespaceAccess(wallet, namespace));
});
