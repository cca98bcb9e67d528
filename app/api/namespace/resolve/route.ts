import { requireSignIn } from "@/lib/auth/siwx";
import { resolveFeedback } from "@/lib/domain/feedback/resolve-feedback";
import { readJsonBody } from "@/lib/http/body";
import { AppError } from "@/lib/http/errors";
import { handle, json } from "@/lib/http/handler";
import { parseInput } from "@/lib/http/validate";
import { parseUsd } from "@/lib/payment/prices";
import { resolveFeedbackSchema } from "@/lib/schemas/resolve";

export const POST = handle(async (request) => {
  const input = parseInput(resolveFeedbackSchema, await readJsonBody(request));
  if (input.rewardAmount !== null && parseUsd(input.rewardAmount) !== 0n) {
    throw new AppError(
      "reward-not-available",
      'Rewards are not available yet; resolve without rewardAmount or with "0".',
      {
        errors: [{ field: "rewardAmount", message: 'must be omitted or "0" for now' }],
      },
    );
  }
  const wallet = await requireSignIn(request);
  return json(await resolveFeedback(wallet.address, input));
});
