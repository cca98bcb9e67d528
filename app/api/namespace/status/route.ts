import { limitedSignedRead } from "@/lib/auth/limited-sign-in";
import { listSubmissions } from "@/lib/domain/feedback/list-submissions";
import { handle, json } from "@/lib/http/handler";
import { parseInput, queryOf } from "@/lib/http/validate";
import { OPERATIONS } from "@/lib/schemas/operations/catalog";

export const GET = handle(async (request) => {
  const query = parseInput(OPERATIONS.status.query, queryOf(request));
  return json(await limitedSignedRead(request, (wallet) => listSubmissions(wallet, query)));
});
