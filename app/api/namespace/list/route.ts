import { limitedSignedRead } from "@/lib/auth/limited-sign-in";
import { listFeedback } from "@/lib/domain/feedback/list-feedback";
import { handle, json } from "@/lib/http/handler";
import { parseInput, queryOf } from "@/lib/http/validate";
import { OPERATIONS } from "@/lib/schemas/operations/catalog";

export const GET = handle(async (request) => {
  const query = parseInput(OPERATIONS.list.query, queryOf(request));
  return json(await limitedSignedRead(request, (wallet) => listFeedback(wallet, query)));
});
