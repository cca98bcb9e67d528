import { limitedSignIn } from "@/lib/auth/limited-sign-in";
import { resolveFeedback } from "@/lib/domain/feedback/resolve-feedback";
import { finishRewardedResolve, rewardedResolveWrite } from "@/lib/domain/rewards/resolve-with-reward";
import { json } from "@/lib/http/handler";
import { offerOf } from "@/lib/payment/offer";
import { paid } from "@/lib/payment/paid-route";
import { OPERATIONS } from "@/lib/schemas/operations/catalog";

/**
 * Resolve an item: free for its owner without a reward (signed in); with rewardAmount, the price is
 * the reward, forwarded to the submitter.
 */
export const POST = paid(offerOf(OPERATIONS.resolve), {
  write: rewardedResolveWrite,
  finish: finishRewardedResolve,
  free: async (input, request) => {
    const wallet = await limitedSignIn(request);
    return json(await resolveFeedback(wallet, input));
  },
});
