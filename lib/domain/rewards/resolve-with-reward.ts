import "server-only";
import { randomBytes } from "node:crypto";
import { and, eq, isNull } from "drizzle-orm";
import { optionalSignIn } from "@/lib/auth/siwx";
import { getDb } from "@/lib/db/client";
import { feedback, payouts } from "@/lib/db/schema";
import { alreadyResolved, loadResolveTarget, notOwner } from "@/lib/domain/feedback/resolve-feedback";
import { AppError } from "@/lib/http/errors";
import { publicUrl } from "@/lib/http/resource";
import { fulfilPayment } from "@/lib/payment/ledger";
import { hasPaymentCredential, runPaid } from "@/lib/payment/paid";
import { formatUsd, toAssetUnits } from "@/lib/payment/prices";
import { payoutClient, tempoBalance } from "@/lib/payment/tempo";
import type { PaidContext } from "@/lib/payment/types";
import type { ResolveFeedbackInput } from "@/lib/schemas/resolve";
import { enqueueWebhook } from "@/lib/webhooks/outbox";
import { rewardMemo, settlePayout } from "./settle-payout";

/** What a rewarded resolve keeps in its ledger row, enough to finish it after a crash. */
export type RewardedResolveInput = ResolveFeedbackInput & { resolver: string | null; rewardMicroUsd: string };

/**
 * POST /resolve with a reward: every refusal that can be known is given before the charge (unknown
 * item, not the owner, already resolved, nobody to pay, a payout wallet that cannot cover it); the
 * price is the reward; the payout is reserved with the resolution and paid at most once.
 */
export async function resolveWithRewardPaid(request: Request, input: ResolveFeedbackInput, reward: bigint) {
  const db = await getDb();
  const signedIn = hasPaymentCredential(request) ? await optionalSignIn(request) : null;
  const item = await loadResolveTarget(db, input.feedbackId);
  const isOwner = (wallet: string) => item.owner?.toLowerCase() === wallet.toLowerCase();
  if (signedIn && !isOwner(signedIn.address)) throw notOwner(item.namespace);
  if (item.resolved || item.resolving) throw alreadyResolved(item.id);
  if (!item.submitter) {
    throw new AppError("no-reward-recipient", "This item has no submitter wallet to pay a reward to.");
  }
  const units = toAssetUnits(reward, 6);
  if ((await tempoBalance(payoutClient().account.address)) < units) {
    throw new AppError(
      "payout-unavailable",
      "Rewards cannot be paid right now; nothing was charged. Try again later.",
      {
        headers: { "retry-after": "60" },
      },
    );
  }
  const stored: RewardedResolveInput = {
    ...input,
    resolver: signedIn?.address ?? null,
    rewardMicroUsd: reward.toString(),
  };
  return runPaid(request, {
    charge: {
      operation: "resolve",
      method: "POST",
      amountMicroUsd: reward,
      resourceUrl: publicUrl(request),
      description: `Resolving with a ${formatUsd(reward)} USD reward`,
    },
    lockKey: `resolve:${item.id}`,
    lockedError: () => alreadyResolved(item.id),
    input: stored,
    authorize: async (payment) => {
      if (!signedIn && !isOwner(payment.payer)) throw notOwner(item.namespace);
    },
    reserve: async (tx, paymentId) => {
      const held = await tx
        .update(feedback)
        .set({ resolvingPaymentId: paymentId })
        .where(
          and(eq(feedback.id, item.id), eq(feedback.resolved, false), isNull(feedback.resolvingPaymentId)),
        )
        .returning({ id: feedback.id });
      if (held.length === 0) throw alreadyResolved(item.id);
    },
    release: async (tx, paymentId) => {
      await tx
        .update(feedback)
        .set({ resolvingPaymentId: null })
        .where(and(eq(feedback.id, item.id), eq(feedback.resolvingPaymentId, paymentId)));
    },
    commit: (ctx) => commitRewardedResolve(stored, ctx),
    finish: async (committed) => ({ ...committed.body, reward: await payReward(item.id) }),
  });
}

/**
 * Resolves the held item and records the payout it owes, in one transaction with the ledger row's
 * fulfilment.
 */
export function commitRewardedResolve(input: RewardedResolveInput, ctx: PaidContext) {
  return ctx.db.transaction(async (tx) => {
    const resolver = input.resolver ?? ctx.payer;
    const reward = BigInt(input.rewardMicroUsd);
    const resolvedAt = new Date();
    const [item] = await tx
      .update(feedback)
      .set({
        resolved: true,
        resolvedAt,
        resolvedBy: resolver,
        resolveMessage: input.message,
        rewardAmount: formatUsd(reward),
      })
      .where(
        and(
          eq(feedback.id, input.feedbackId),
          eq(feedback.resolvingPaymentId, ctx.paymentId),
          eq(feedback.resolved, false),
        ),
      )
      .returning({ namespace: feedback.namespace, submitter: feedback.submitterWallet });
    if (!item?.submitter) throw new Error(`item ${input.feedbackId} is not held by payment ${ctx.paymentId}`);
    await tx.insert(payouts).values({
      id: `po_${randomBytes(12).toString("base64url")}`,
      feedbackId: input.feedbackId,
      paymentId: ctx.paymentId,
      recipient: item.submitter,
      amount: toAssetUnits(reward, 6).toString(),
      memo: rewardMemo(input.feedbackId),
      status: "pending",
    });
    await enqueueWebhook(tx, item.namespace, "feedback.resolved", {
      id: input.feedbackId,
      namespace: item.namespace,
      resolvedAt: resolvedAt.toISOString(),
      resolvedBy: resolver,
      message: input.message,
      rewardAmount: formatUsd(reward),
    });
    await fulfilPayment(tx, ctx, input.feedbackId);
    return {
      resultId: input.feedbackId,
      body: {
        id: input.feedbackId,
        namespace: item.namespace,
        resolved: true,
        resolvedAt: resolvedAt.toISOString(),
        resolvedBy: resolver,
        ...(input.message !== null ? { message: input.message } : {}),
      } as Record<string, unknown>,
    };
  });
}

/** Pays the reward now; a reward that cannot be paid is refunded and reported as such. */
async function payReward(feedbackId: string) {
  const outcome = await settlePayout(feedbackId);
  if (outcome.status === "paid") {
    return {
      amount: formatUsd(BigInt(outcome.amount)),
      recipient: outcome.recipient,
      txHash: outcome.txHash,
    };
  }
  if (outcome.status === "refunded") {
    throw new AppError(
      "reward-failed",
      `The reward could not be paid (${outcome.reason}). Your payment was refunded in transaction ${outcome.refundTxHash}; the item is open again.`,
      { body: { refundTxHash: outcome.refundTxHash } },
    );
  }
  throw new AppError(
    "payout-unavailable",
    "The item is resolved and its reward is being paid; the payment network has not confirmed it yet. It is paid once, automatically; its status will show the transaction.",
    { headers: { "retry-after": "30" } },
  );
}
