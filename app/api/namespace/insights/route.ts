import { limitedSignIn } from "@/lib/auth/limited-sign-in";
import { getInsights } from "@/lib/domain/insights/get-insights";
import { handle, json } from "@/lib/http/handler";
import { parseInput, queryOf } from "@/lib/http/validate";
import { OPERATIONS } from "@/lib/schemas/operations/catalog";

/** A namespace's figures over a period: items by type, open and resolved, response times, reporters, rewards. */
export const GET = handle(async (request) => {
  const query = parseInput(OPERATIONS.insights.query, queryOf(request));
  const wallet = await limitedSignIn(request);
  return json(await getInsights(wallet, query));
});
