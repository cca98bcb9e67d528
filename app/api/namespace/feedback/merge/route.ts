import { limitedSignIn } from "@/lib/auth/limited-sign-in";
import { mergeReports } from "@/lib/domain/feedback/groups";
import { readJsonBody } from "@/lib/http/body";
import { handle, json } from "@/lib/http/handler";
import { parseInput } from "@/lib/http/validate";
import { OPERATIONS } from "@/lib/schemas/operations/catalog";

/** The owner files reports under one group of duplicates. */
export const POST = handle(async (request) => {
  const input = parseInput(OPERATIONS.merge.body, await readJsonBody(request));
  const wallet = await limitedSignIn(request);
  return json(await mergeReports(wallet, input));
});
