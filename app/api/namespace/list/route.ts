import { limitedSignedRead } from "@/lib/auth/limited-sign-in";
import { listFeedback } from "@/lib/domain/feedback/list-feedback";
import { handle, json } from "@/lib/http/handler";
import { parseInput, queryOf } from "@/lib/http/validate";
import { listQuerySchema } from "@/lib/schemas/list";

export const GET = handle(async (request) => {
  const query = parseInput(listQuerySchema, queryOf(request));
  return json(await limitedSignedRead(request, (wallet) => listFeedback(wallet, query)));
});
