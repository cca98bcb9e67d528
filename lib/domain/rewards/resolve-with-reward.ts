import "server-only";
import { randomBytes } from "node:crypto";
import { and, eq, isNull, ne, notExists, sql } from "drizzle-orm";
import { z } from "zod";
import type { Who } from "@/lib/auth/identity";
import { type DbOrTx, getDb } from "@/lib/db/client";
import { feedback, payouts } from "@/lib/db/schema";
import { recordEvents } from "@/lib/domain/feedback/history";
import { SEEN_BY_OWNER } from "@/lib/domain/feedback/known-listing";
import {
  announceResolved,
  checkAlsoResolve,
  resolutionFor,
  resolveAlso,
} from "@/lib/domain/feedback/resolution";
import { alreadyResolved, loadResolveTarget, requireResolver } from "@/lib/domain/feedback/resolve-feedback";
import { env } from "@/lib/env";
import { AppError } from "@/lib/http/errors";
import { describeError } from "@/lib/http/log";
import { formatUsd, toAssetUnits } from "@/lib/money";
import { fulfilPayment } from "@/lib/payment/ledger";
import { payoutClient, tempoBalance } from "@/lib/payment/tempo";
import type { Caller, PaidContext, PaidWrite } from "@/lib/payment/types";
import { type ResolveFeedbackInput, resolveFeedbackSchema, rewardOf } from "@/lib/schemas/resolve";
import { rewardActionId } from "@/lib/webhooks/outbox";
import { rewardMemo } from "./memos";
import { settlePayout } from "./settle-payout";

/**
 * What a rewarded resolve keeps in its ledger row, enough to finish it after a crash; recovery parses
 * the stored input with this again before it stores anything.
 */
export const rewardedResolveInputSchema = resolveFeedbackSchema.extend({
  resolver: z
    .string()
    .regex(/^0x[0-9a-fA-F]{40}$/)
    .nullable(),
  rewardMicroUsd: z.string().regex(/^[1-9][0-9]{0,12}$/),
});
export type RewardedResolveInput = z.output<typeof rewardedResolveInputSchema>;

/** Gives back an item a rewarded resolve held, when its payment failed or was released. */
export async function releaseHeldItem(db: DbOrTx, paymentId: string): Promise<void> {
  await db
    .update(feedback)
    .set({ resolvingPaymentId: null })
    .where(eq(feedback.resolvingPaymentId, paymentId));
}

const rewardAlreadyPaid = (id: string) =>
  new AppError(
    "reward-already-paid",
    `The feedback item "${id}" was already rewarded once; resolve it again without a reward.`,
    { errors: [{ field: "rewardAmount", message: "must be 0: this item's reward was already paid" }] },
  );

/** A reward paid or being paid for the item: one per item, for good, even after it is reopened. */
const activePayout = (db: DbOrTx, feedbackId: string) =>
  db
    .select({ one: sql`1` })
    .from(payouts)
    .where(and(eq(payouts.feedbackId, feedbackId), ne(payouts.status, "refunded")));

async function hasReward(db: DbOrTx, feedbackId: string): Promise<boolean> {
  return (await activePayout(db, feedbackId).limit(1)).length > 0;
}

/** The payout wallet's balance, or a 503 that is about the network (nothing is charged either way). */
async function payoutBalance(): Promise<bigint> {
  try {
    return await tempoBalance(payoutClient().account.address);
  } catch (error) {
    console.error(`[resolve] the payout wallet's balance could not be read: ${describeError(error)}`);
    throw new AppError(
      "payment-unavailable",
      "The payment network could not be reached to check that the reward can be paid; nothing was charged. Retry shortly.",
      { headers: { "retry-after": "5" } },
    );
  }
}

/**
 * The paid write of a resolve with a reward: every knowable refusal (unknown item, not the owner, already
 * resolved, nobody to pay, a payout wallet short of it) comes before the charge; the price is the reward, and
 * the payout is reserved with the resolution and paid at most once (finishRewardedResolve).
 */
export async function rewardedResolveWrite(
  input: ResolveFeedbackInput,
  caller: Caller,
): Promise<PaidWrite<Record<string, unknown>>> {
  const reward = rewardOf(input);
  const db = await getDb();
  // Without a sign-in proof, the paying wallet must be the owner or an admin (checked once it is verified).
  const { signedIn } = caller;
  const item = await loadResolveTarget(db, input.feedbackId);
  const mayReward = (who: Who) => requireResolver(db, item, who, "reward");
  if (signedIn) await mayReward(signedIn);
  if (item.resolved || item.resolving) throw alreadyResolved(item.id);
  if (await hasReward(db, item.id)) throw rewardAlreadyPaid(item.id);
  if (!item.submitter) {
    throw new AppError("no-reward-recipient", "This item has no submitter wallet to pay a reward to.");
  }
  const tempo = `eip155:${env().TEMPO_CHAIN_ID}`;
  if (item.submitterOn !== null && item.submitterOn !== tempo) {
    throw new AppError(
      "no-reward-recipient",
      `This item was paid for from a contract wallet on ${item.submitterOn}. Rewards are paid on Tempo, where that address is not known to be the submitter's; nothing was charged.`,
    );
  }
  await checkAlsoResolve(db, item, input.alsoResolve);
  if ((await payoutBalance()) < toAssetUnits(reward, 6)) {
    throw new AppError(
      "payout-unavailable",
      "Rewards cannot be paid right now; nothing was charged. Try again later.",
      { headers: { "retry-after": "60" } },
    );
  }
  const stored: RewardedResolveInput = {
    ...input,
    resolver: signedIn?.address ?? null,
    rewardMicroUsd: reward.toString(),
  };
  return {
    lockKey: `resolve:${item.id}`,
    lockedError: () => alreadyResolved(item.id),
    input: stored,
    authorize: async (payment) => {
      if (!signedIn) await mayReward({ address: payment.payer, contractOn: payment.payerContractOn });
    },
    reserve: (tx, paymentId) => holdForReward(tx, item.id, paymentId),
    release: releaseHeldItem,
    commit: (ctx) => commitRewardedResolve(stored, ctx),
  };
}

/** Holds an open item, never rewarded, for the rewarded resolve `paymentId` pays for; a 409 otherwise. */
export async function holdForReward(tx: DbOrTx, id: string, paymentId: string): Promise<void> {
  const held = await tx
    .update(feedback)
    .set({ resolvingPaymentId: paymentId })
    .where(
      and(
        eq(feedback.id, id),
        eq(feedback.resolved, false),
        isNull(feedback.resolvingPaymentId),
        notExists(activePayout(tx, id)),
      ),
    )
    .returning({ id: feedback.id });
  if (held.length === 0) throw alreadyResolved(id);
}

/** After a rewarded resolve is stored: the reward is paid out, once, and its transfer answered. */
export async function finishRewardedResolve(committed: { resultId: string; body: Record<string, unknown> }) {
  return { ...committed.body, reward: await payReward(committed.resultId) };
}

// A chat message of a rewarded resolve waits this long for the payout, so the payment joins it.
const REWARD_HOLD_SECONDS = 30;

/**
 * Resolves the held item and records the payout it owes, in one transaction with the ledger row's
 * fulfilment. Its events are one action, named by the payment, which the reward's payment joins.
 */
export function commitRewardedResolve(input: RewardedResolveInput, ctx: PaidContext) {
  return ctx.db.transaction(async (tx) => {
    const resolver = input.resolver ?? ctx.payer;
    const reward = BigInt(input.rewardMicroUsd);
    const resolvedAt = new Date();
    const action = rewardActionId(ctx.paymentId);
    // The status it leaves, for its history (the row is locked by the update that follows).
    const [before] = await tx
      .select({ status: feedback.status })
      .from(feedback)
      .where(eq(feedback.id, input.feedbackId));
    const [item] = await tx
      .update(feedback)
      .set({
        ...resolutionFor("resolved", resolver, input.message, resolvedAt, input.publicNote),
        ...SEEN_BY_OWNER,
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
    // The items the owner named with it are resolved too (those still open); the reward is this one's.
    const also = await resolveAlso(
      tx,
      { id: input.feedbackId, namespace: item.namespace },
      input.alsoResolve,
      resolver,
      { message: input.message, publicNote: input.publicNote },
      resolvedAt,
      action,
    );
    await recordEvents(
      tx,
      [
        {
          feedbackId: input.feedbackId,
          namespace: item.namespace,
          kind: "status",
          actor: resolver,
          from: before?.status ?? null,
          to: "resolved",
          message: input.message,
          details: { rewardAmount: formatUsd(reward) },
          at: resolvedAt,
          // The reporter's callback hears of it with the reward's transaction, once paid (markPaid).
          tellReporter: false,
        },
      ],
      action,
    );
    await tx.insert(payouts).values({
      id: `po_${randomBytes(12).toString("base64url")}`,
      feedbackId: input.feedbackId,
      paymentId: ctx.paymentId,
      recipient: item.submitter,
      amount: toAssetUnits(reward, 6).toString(),
      memo: rewardMemo(input.feedbackId),
      status: "pending",
    });
    await announceResolved(
      tx,
      { id: input.feedbackId, namespace: item.namespace },
      { at: resolvedAt, by: resolver, message: input.message, rewardAmount: formatUsd(reward) },
      { action, holdSeconds: REWARD_HOLD_SECONDS },
    );
    const body: Record<string, unknown> = {
      id: input.feedbackId,
      namespace: item.namespace,
      resolved: true,
      resolvedAt: resolvedAt.toISOString(),
      resolvedBy: resolver,
      ...(input.message !== null ? { message: input.message } : {}),
      ...(input.alsoResolve.length > 0 ? { alsoResolved: also } : {}),
    };
    await fulfilPayment(tx, ctx, input.feedbackId, body);
    return { resultId: input.feedbackId, body };
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
    "The item is resolved and its reward is being paid; the payment network has not confirmed it yet. It is paid once, automatically: do not pay again. Its status will show the transaction.",
    { headers: { "retry-after": "30" } },
  );
}
