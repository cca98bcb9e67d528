import { sql } from "drizzle-orm";
import { index, jsonb, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";

export type PaymentStatus = "claimed" | "settled" | "fulfilled" | "failed" | "refunded";

/**
 * The payment ledger: one row per payment credential ever accepted for settlement.
 * `paymentKey` is the protocol's own replay domain (for x402: token, payer and EIP-3009 nonce), so
 * a credential can be claimed once, ever; `lockKey` reserves a business resource (a namespace
 * name, a feedback item) while a payment for it is in flight, so two payers never both pay for it.
 */
export const payments = pgTable(
  "payments",
  {
    id: text("id").primaryKey(),
    protocol: text("protocol").notNull(),
    paymentKey: text("payment_key").notNull(),
    operation: text("operation").notNull(),
    lockKey: text("lock_key"),
    status: text("status").$type<PaymentStatus>().notNull(),
    payer: text("payer").notNull(),
    amount: text("amount").notNull(),
    asset: text("asset").notNull(),
    network: text("network").notNull(),
    payTo: text("pay_to").notNull(),
    txRef: text("tx_ref"),
    /** The refund's transaction when a paid write could not be completed (a reward that could not be paid). */
    refundTxRef: text("refund_tx_ref"),
    error: text("error"),
    /** When the credential stops being settleable; a claim still unsettled after it can only have failed. */
    expiresAt: timestamp("expires_at", { precision: 3, withTimezone: true, mode: "date" }),
    request: jsonb("request").$type<Record<string, unknown>>().notNull(),
    resultId: text("result_id"),
    createdAt: timestamp("created_at", { precision: 3, withTimezone: true, mode: "date" })
      .notNull()
      .defaultNow(),
    updatedAt: timestamp("updated_at", { precision: 3, withTimezone: true, mode: "date" })
      .notNull()
      .defaultNow(),
  },
  (t) => [
    uniqueIndex("payments_payment_key_uq").on(t.paymentKey),
    uniqueIndex("payments_active_lock_key_uq")
      .on(t.lockKey)
      .where(sql`${t.lockKey} is not null and ${t.status} not in ('failed', 'refunded')`),
    index("payments_status_idx").on(t.status, t.updatedAt),
  ],
);
