import { limitedSignIn } from "@/lib/auth/limited-sign-in";
import { countFeedback } from "@/lib/domain/feedback/count-feedback";
import { handle, json } from "@/lib/http/handler";
import { parseInput, queryOf } from "@/lib/http/validate";
import { countsQuerySchema } from "@/lib/schemas/list";

/** Counts per type, open and resolved, of a namespace the signed-in wallet owns. */
export const GET = handle(async (request) => {
  const { namespace } = parseInput(countsQuerySchema, queryOf(request));
  const wallet = await limitedSignIn(request);
  return json(await countFeedback(wallet, namespace));
});
