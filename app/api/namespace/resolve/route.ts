import { resolveFeedback } from "@/lib/domain/feedback/resolve-feedback";
import { resolveWithRewardPaid } from "@/lib/domain/rewards/resolve-with-reward";
import { readJsonBody } from "@/lib/http/body";
import { handle, json } from "@/lib/http/handler";
import { limitedSignIn } from "@/lib/http/rate-limit";
import { parseInput } from "@/lib/http/validate";
import { parseUsd } from "@/lib/payment/prices";
import { resolveFeedbackSchema } from "@/lib/schemas/resolve";

export const POST = handle(async (request) => {
  const input = parseInput(resolveFeedbackSchema, await readJsonBody(request));
  const reward = input.rewardAmount === null ? 0n : (parseUsd(input.rewardAmount) ?? 0n);
  if (reward > 0n) return resolveWithRewardPaid(request, input, reward);
  const wallet = await limitedSignIn(request);
  return json(await resolveFeedback(wallet.address, input));
});
