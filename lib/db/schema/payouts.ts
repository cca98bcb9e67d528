import { sql } from "drizzle-orm";
import { index, integer, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { rowTimes } from "./columns";

export type PayoutStatus = "pending" | "paid" | "refunding" | "refunded";

/**
 * A reward owed to a submitter, created in the transaction that resolves the item. At most one payout per
 * item is not refunded (unique index), so it is paid once at most; a refund reopens the item. The signed
 * transaction is stored before broadcast, so a retry re-sends the same bytes, which land once at most.
 */
export const payouts = pgTable(
  "payouts",
  {
    id: text("id").primaryKey(),
    feedbackId: text("feedback_id").notNull(),
    paymentId: text("payment_id").notNull().unique(),
    recipient: text("recipient").notNull(),
    amount: text("amount").notNull(),
    memo: text("memo").notNull(),
    status: text("status").$type<PayoutStatus>().notNull(),
    rawTx: text("raw_tx"),
    txHash: text("tx_hash"),
    refundRawTx: text("refund_raw_tx"),
    refundTxHash: text("refund_tx_hash"),
    attempts: integer("attempts").notNull().default(0),
    error: text("error"),
    ...rowTimes(),
  },
  (t) => [
    index("payouts_status_idx").on(t.status, t.updatedAt),
    uniqueIndex("payouts_active_feedback_uq").on(t.feedbackId).where(sql`${t.status} <> 'refunded'`),
  ],
);
