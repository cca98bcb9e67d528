import { sql } from "drizzle-orm";
import { index, jsonb, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { instant, rowTimes } from "./columns";

export type PaymentStatus = "claimed" | "settled" | "fulfilled" | "failed" | "refunded";

/**
 * The payment ledger: one row per credential ever accepted for settlement. `paymentKey` is the protocol's own
 * replay domain (x402: token, payer, EIP-3009 nonce), so a credential is claimed once, ever; `lockKey` holds
 * what is bought (a name, an item) while its payment is in flight, so two payers never both pay for it.
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
    /** The chain the payer proved a contract wallet on (EIP-1271/6492); null for a plain key's signature. */
    payerContractOn: text("payer_contract_on"),
    amount: text("amount").notNull(),
    asset: text("asset").notNull(),
    network: text("network").notNull(),
    payTo: text("pay_to").notNull(),
    txRef: text("tx_ref"),
    /** The refund's transaction when a paid write could not be completed (a reward that could not be paid). */
    refundTxRef: text("refund_tx_ref"),
    error: text("error"),
    /**
     * The claim's deadline: when the credential stops being able to move money. Every claim has one,
     * and past it reconciliation drives the claim to a final state (settled and stored, or failed).
     */
    expiresAt: instant("expires_at").notNull(),
    request: jsonb("request").$type<Record<string, unknown>>().notNull(),
    /** SHA-256 of the request body the credential paid for: a re-send of the same request gets its answer again. */
    requestHash: text("request_hash"),
    /** SHA-256 of the credential as sent: only that same credential is answered as the first time. */
    credentialHash: text("credential_hash"),
    /** The client's Idempotency-Key: a retry under it is answered by this row, whatever it pays with. */
    idempotencyKey: text("idempotency_key"),
    resultId: text("result_id"),
    /** The answer the paid write gave, stored with it: what a re-sent credential is answered with. */
    response: jsonb("response").$type<Record<string, unknown>>(),
    ...rowTimes(),
  },
  (t) => [
    uniqueIndex("payments_payment_key_uq").on(t.paymentKey),
    uniqueIndex("payments_active_lock_key_uq")
      .on(t.lockKey)
      .where(sql`${t.lockKey} is not null and ${t.status} not in ('failed', 'refunded')`),
    index("payments_status_idx").on(t.status, t.updatedAt),
    // One live payment per operation, payer and Idempotency-Key; a failed or refunded one frees the key.
    uniqueIndex("payments_idempotency_uq")
      .on(t.operation, t.payer, t.idempotencyKey)
      .where(sql`${t.idempotencyKey} is not null and ${t.status} not in ('failed', 'refunded')`),
    // Recovery pages through open claims oldest first.
    index("payments_open_created_idx")
      .on(t.createdAt, t.id)
      .where(sql`${t.status} in ('claimed', 'settled')`),
  ],
);
