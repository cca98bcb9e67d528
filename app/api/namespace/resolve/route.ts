import { limitedSignIn } from "@/lib/auth/limited-sign-in";
import { resolveFeedback } from "@/lib/domain/feedback/resolve-feedback";
import { finishRewardedResolve, rewardedResolveWrite } from "@/lib/domain/rewards/resolve-with-reward";
import { json } from "@/lib/http/handler";
import { formatUsd } from "@/lib/money";
import { paid } from "@/lib/payment/paid-route";
import { EXAMPLES } from "@/lib/schemas/examples";
import { MAX_REWARD_MICRO_USD, resolveFeedbackSchema, rewardOf } from "@/lib/schemas/resolve";
import { resolveResponseSchema } from "@/lib/schemas/responses";

/**
 * Resolve an item: free for its owner without a reward (signed in); with rewardAmount, the price is
 * the reward, forwarded to the submitter. A body-less probe is quoted the largest reward.
 */
export const POST = paid(
  {
    operation: "resolve",
    price: (input) => (input === null ? MAX_REWARD_MICRO_USD : rewardOf(input) || null),
    description: (price, input) =>
      input === null
        ? `Resolving with a reward: the price is rewardAmount, up to ${formatUsd(MAX_REWARD_MICRO_USD)} USD`
        : `Resolving with a ${formatUsd(price)} USD reward`,
    schema: resolveFeedbackSchema,
    discovery: { ...EXAMPLES.resolve, output: resolveResponseSchema },
    signIn: "optional",
  },
  {
    write: rewardedResolveWrite,
    finish: finishRewardedResolve,
    free: async (input, request) => {
      const wallet = await limitedSignIn(request);
      return json(await resolveFeedback(wallet, input));
    },
  },
);
