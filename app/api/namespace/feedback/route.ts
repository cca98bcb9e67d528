import { limitedSignIn } from "@/lib/auth/limited-sign-in";
import { getFeedback } from "@/lib/domain/feedback/get-feedback";
import { finishSubmission, submitFeedbackWrite } from "@/lib/domain/feedback/submit-feedback";
import { handle, json } from "@/lib/http/handler";
import { parseInput, queryOf } from "@/lib/http/validate";
import { paid } from "@/lib/payment/paid-route";
import { PRICES } from "@/lib/payment/prices";
import { EXAMPLES } from "@/lib/schemas/examples";
import { getFeedbackQuery, submitFeedbackSchema } from "@/lib/schemas/feedback";
import { submitResponseSchema } from "@/lib/schemas/responses";

/** Submit feedback: 0.01 USD, into any namespace name, registered or not. */
export const POST = paid(
  {
    operation: "feedback",
    price: PRICES.feedback,
    description: "Submitting feedback",
    schema: submitFeedbackSchema,
    discovery: { ...EXAMPLES.feedback, output: submitResponseSchema },
    // A proof for the paying wallet marks the item verified.
    signIn: "optional",
  },
  { write: submitFeedbackWrite, finish: finishSubmission },
);

/** One item in full, for its submitter or the namespace's owner. */
export const GET = handle(async (request) => {
  const { id } = parseInput(getFeedbackQuery, queryOf(request));
  const wallet = await limitedSignIn(request);
  return json(await getFeedback(wallet, id));
});
