import { limitedSignIn } from "@/lib/auth/limited-sign-in";
import { changeStatus } from "@/lib/domain/feedback/change-status";
import { readJsonBody } from "@/lib/http/body";
import { handle, json } from "@/lib/http/handler";
import { parseInput } from "@/lib/http/validate";
import { OPERATIONS } from "@/lib/schemas/operations/catalog";

/** The owner's triage: one status, and a message for the submitters, on one or many items. */
export const POST = handle(async (request) => {
  const input = parseInput(OPERATIONS.triage.body, await readJsonBody(request));
  const wallet = await limitedSignIn(request);
  return json(await changeStatus(wallet, input));
});
