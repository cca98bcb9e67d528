import "server-only";
import type { PaidCommits } from "@/lib/payment/recover";
import { recoverPayments } from "@/lib/payment/recover";
import type { SubmitFeedbackInput } from "@/lib/schemas/feedback";
import type { RegisterNamespaceInput } from "@/lib/schemas/namespace";
import { type SignedIn, submitFeedback } from "./feedback/submit-feedback";
import { registerNamespace } from "./namespace/register-namespace";
import { commitRewardedResolve, type RewardedResolveInput } from "./rewards/resolve-with-reward";

/** Each paid operation's write, rebuilt from the validated input its ledger row keeps. */
export const PAID_COMMITS: PaidCommits = {
  register: (input, ctx) => registerNamespace(input as RegisterNamespaceInput, ctx),
  resolve: (input, ctx) => commitRewardedResolve(input as RewardedResolveInput, ctx),
  feedback: (input, ctx) => {
    const { signedIn, ...item } = input as SubmitFeedbackInput & { signedIn: SignedIn };
    return submitFeedback(item, signedIn ?? null, ctx);
  },
};

/** Finishes every paid write a crash or a lost answer left half-done. */
export function recoverPaidWrites() {
  return recoverPayments(PAID_COMMITS);
}
