import "server-only";
import { and, desc, eq, isNull, type SQL, sql } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import type { Hex } from "viem";
import type { DbOrTx } from "@/lib/db/client";
import { feedback, type PayoutStatus, payments, payouts } from "@/lib/db/schema";
import { recordEvents, resolveMeToos } from "@/lib/domain/feedback/history";
import { formatUsd } from "@/lib/money";
import { markRefunded as markPaymentRefunded } from "@/lib/payment/ledger";
import { enqueueCallbacks } from "@/lib/webhooks/callbacks";
import { enqueueWebhook, releaseHeldAction, rewardActionId } from "@/lib/webhooks/outbox";

export type PayoutRow = typeof payouts.$inferSelect;

/**
 * The item's current payout: the one not refunded (a unique index allows one), else the latest refunded
 * one. Not by time alone: two payouts may share a timestamp, and a refunded one must never hide the live one.
 */
export async function payoutFor(db: DbOrTx, feedbackId: string): Promise<PayoutRow | undefined> {
  const [row] = await db
    .select()
    .from(payouts)
    .where(eq(payouts.feedbackId, feedbackId))
    .orderBy(sql`${payouts.status} = 'refunded'`, desc(payouts.createdAt))
    .limit(1);
  return row;
}

/** The resolver's payment a payout was bought with. */
export async function paymentOf(db: DbOrTx, paymentId: string) {
  const [row] = await db.select().from(payments).where(eq(payments.id, paymentId));
  if (!row) throw new Error(`payment ${paymentId} is missing`);
  return row;
}

/**
 * The payout still exactly as `row` was read, and in `status`: its status, and the bytes and the refund
 * transaction it held. Every change is decided from what was read, so every change is made only if
 * nothing moved since: a worker that read before another signed (or paid, or refunded) changes nothing.
 */
function asRead(row: PayoutRow, status: PayoutStatus): SQL | undefined {
  // A row read in another status cannot make this change at all.
  if (row.status !== status) return sql`false`;
  const same = (column: AnyPgColumn, value: string | null) =>
    value === null ? isNull(column) : eq(column, value);
  return and(
    eq(payouts.id, row.id),
    eq(payouts.status, status),
    same(payouts.rawTx, row.rawTx),
    same(payouts.txHash, row.txHash),
    same(payouts.refundRawTx, row.refundRawTx),
    same(payouts.refundTxHash, row.refundTxHash),
  );
}

/**
 * Records signed bytes before they are broadcast, only if nobody else recorded different ones since
 * `row` was read: two workers can never both send a payout.
 */
export async function recordSigned(
  db: DbOrTx,
  row: PayoutRow,
  kind: "payout" | "refund",
  signed: { rawTx: Hex; txHash: Hex },
): Promise<boolean> {
  const updated = await db
    .update(payouts)
    .set({
      ...(kind === "payout"
        ? { rawTx: signed.rawTx, txHash: signed.txHash }
        : { refundRawTx: signed.rawTx, refundTxHash: signed.txHash }),
      attempts: sql`${payouts.attempts} + 1`,
      updatedAt: sql`now()`,
    })
    .where(asRead(row, kind === "payout" ? "pending" : "refunding"))
    .returning({ id: payouts.id });
  return updated.length === 1;
}

/** Records the transaction an x402 refund was sent in (sending it again is harmless: see refund.ts). */
export async function recordRefundSent(db: DbOrTx, row: PayoutRow, txHash: Hex): Promise<boolean> {
  const updated = await db
    .update(payouts)
    .set({ refundTxHash: txHash, attempts: sql`${payouts.attempts} + 1`, updatedAt: sql`now()` })
    .where(asRead(row, "refunding"))
    .returning({ id: payouts.id });
  return updated.length === 1;
}

/**
 * The reward landed: the payout and the item both carry its transaction hash, and the payment that
 * held the item lets it go (the item's one reward is kept by the paid payout, not by the hold).
 */
export async function markPaid(db: DbOrTx, row: PayoutRow, txHash: Hex): Promise<boolean> {
  return db.transaction(async (tx) => {
    const paid = await tx
      .update(payouts)
      .set({ status: "paid", txHash, error: null, updatedAt: sql`now()` })
      .where(asRead(row, "pending"))
      .returning({ id: payouts.id });
    // Only the call that moved the payout to paid touches the item and announces it: reward.paid is sent once.
    if (paid.length === 0) return false;
    const [item] = await tx
      .update(feedback)
      .set({
        rewardTxHash: txHash,
        resolvingPaymentId: sql`case when ${feedback.resolvingPaymentId} = ${row.paymentId} then null else ${feedback.resolvingPaymentId} end`,
      })
      .where(eq(feedback.id, row.feedbackId))
      .returning({
        namespace: feedback.namespace,
        resolvedAt: feedback.resolvedAt,
        resolvedBy: feedback.resolvedBy,
        message: feedback.resolveMessage,
        publicNote: feedback.publicNote,
      });
    if (item) {
      // The reporter's callback is told of its rewarded resolution now, with the transaction.
      await enqueueCallbacks(tx, [
        {
          type: "report.resolved",
          data: {
            id: row.feedbackId,
            namespace: item.namespace,
            // The event is the resolution's, whatever the report's status has become since.
            status: "resolved",
            resolvedAt: (item.resolvedAt ?? new Date()).toISOString(),
            message: item.message,
            reward: { amount: formatUsd(BigInt(row.amount)), txHash },
          },
        },
      ]);
      if (item.resolvedAt && item.resolvedBy) {
        // Its "me too" reports are resolved with it now that the reward is on chain (history.ts).
        await resolveMeToos(
          tx,
          [{ id: row.feedbackId, at: item.resolvedAt, by: item.resolvedBy, note: item.publicNote }],
          rewardActionId(row.paymentId),
        );
      }
      await enqueueWebhook(
        tx,
        item.namespace,
        "reward.paid",
        {
          id: row.feedbackId,
          namespace: item.namespace,
          amount: formatUsd(BigInt(row.amount)),
          recipient: row.recipient,
          txHash,
        },
        { action: rewardActionId(row.paymentId), release: true },
      );
    }
    return true;
  });
}

/** The reward cannot be paid: from here on the only way forward is paying the resolver back. */
export async function markRefunding(db: DbOrTx, row: PayoutRow, reason: string): Promise<boolean> {
  const updated = await db
    .update(payouts)
    .set({ status: "refunding", error: reason.slice(0, 500), updatedAt: sql`now()` })
    .where(asRead(row, "pending"))
    .returning({ id: payouts.id });
  return updated.length === 1;
}

/** The resolver got its money back: the item is open again and the ledger shows the refund. */
export async function markRefunded(db: DbOrTx, row: PayoutRow, refundTxHash: Hex): Promise<boolean> {
  return db.transaction(async (tx) => {
    const updated = await tx
      .update(payouts)
      .set({ status: "refunded", refundTxHash, updatedAt: sql`now()` })
      .where(asRead(row, "refunding"))
      .returning({ id: payouts.id });
    if (updated.length === 0) return false;
    const [reopened] = await tx
      .update(feedback)
      .set({
        status: "open",
        resolved: false,
        resolvedAt: null,
        resolvedBy: null,
        resolveMessage: null,
        rewardAmount: null,
        resolvingPaymentId: null,
      })
      .where(and(eq(feedback.id, row.feedbackId), eq(feedback.resolvingPaymentId, row.paymentId)))
      .returning({ namespace: feedback.namespace });
    if (reopened) {
      // The resolve's chat message waited for this payout: it goes now, before the reopening.
      await releaseHeldAction(tx, reopened.namespace, rewardActionId(row.paymentId));
      await recordEvents(tx, [
        {
          feedbackId: row.feedbackId,
          namespace: reopened.namespace,
          kind: "status",
          actor: "service",
          from: "resolved",
          to: "open",
          message: "The reward could not be paid; the resolver was refunded and the item is open again.",
          at: new Date(),
          // Its reporter was never told of the resolution this undoes (that waits for the payment).
          tellReporter: false,
        },
      ]);
    }
    await markPaymentRefunded(tx, row.paymentId, refundTxHash, row.error ?? "the reward could not be paid");
    return true;
  });
}
