import { limitedSignIn } from "@/lib/auth/limited-sign-in";
import { getFeedback } from "@/lib/domain/feedback/get-feedback";
import { finishSubmission, submitFeedbackWrite } from "@/lib/domain/feedback/submit-feedback";
import { handle, json } from "@/lib/http/handler";
import { parseInput, queryOf } from "@/lib/http/validate";
import { offerOf } from "@/lib/payment/offer";
import { paid } from "@/lib/payment/paid-route";
import { OPERATIONS } from "@/lib/schemas/operations/catalog";

/** Submit feedback into any namespace name, registered or not. */
export const POST = paid(offerOf(OPERATIONS.feedback), {
  write: submitFeedbackWrite,
  finish: finishSubmission,
});

/** One item in full, for its submitter or the namespace's owner. */
export const GET = handle(async (request) => {
  const { id } = parseInput(OPERATIONS.record.query, queryOf(request));
  const wallet = await limitedSignIn(request);
  return json(await getFeedback(wallet, id));
});
