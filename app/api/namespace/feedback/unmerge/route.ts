import { limitedSignIn } from "@/lib/auth/limited-sign-in";
import { unmergeReports } from "@/lib/domain/feedback/groups";
import { readJsonBody } from "@/lib/http/body";
import { handle, json } from "@/lib/http/handler";
import { parseInput } from "@/lib/http/validate";
import { unmergeSchema } from "@/lib/schemas/triage";

/** The owner takes reports out of their groups. */
export const POST = handle(async (request) => {
  const input = parseInput(unmergeSchema, await readJsonBody(request));
  const wallet = await limitedSignIn(request);
  return json(await unmergeReports(wallet, input));
});
