import { getFeedback } from "@/lib/domain/feedback/get-feedback";
import { submitFeedbackPaid } from "@/lib/domain/feedback/submit-feedback";
import { readJsonBody } from "@/lib/http/body";
import { handle, json } from "@/lib/http/handler";
import { limitedSignIn } from "@/lib/http/rate-limit";
import { parseInput, queryOf } from "@/lib/http/validate";
import { getFeedbackQuery, submitFeedbackSchema } from "@/lib/schemas/feedback";

export const POST = handle(async (request) => {
  const input = parseInput(submitFeedbackSchema, await readJsonBody(request));
  return submitFeedbackPaid(request, input);
});

export const GET = handle(async (request) => {
  const { id } = parseInput(getFeedbackQuery, queryOf(request));
  const wallet = await limitedSignIn(request);
  return json(await getFeedback(wallet.address, id));
});
