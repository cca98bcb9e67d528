import { limitedSignIn } from "@/lib/auth/limited-sign-in";
import { confirmFix } from "@/lib/domain/feedback/confirm-fix";
import { readJsonBody } from "@/lib/http/body";
import { handle, json } from "@/lib/http/handler";
import { parseInput } from "@/lib/http/validate";
import { OPERATIONS } from "@/lib/schemas/operations/catalog";

/** The submitter's answer to a resolution of its report: fixed, or not fixed (which reopens it). */
export const POST = handle(async (request) => {
  const input = parseInput(OPERATIONS.confirm.body, await readJsonBody(request));
  const wallet = await limitedSignIn(request);
  return json(await confirmFix(wallet, input));
});
