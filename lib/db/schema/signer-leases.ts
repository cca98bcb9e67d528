import { pgTable, text, timestamp } from "drizzle-orm/pg-core";

/**
 * Which app instance may sign with a key whose nonces are sequential (the x402 facilitator's, the
 * x402 refund wallet's): one holder per key, for a short renewable lease. Two instances signing from
 * one key with nonce managers of their own would collide on nonces.
 */
export const signerLeases = pgTable("signer_leases", {
  address: text("address").primaryKey(),
  holder: text("holder").notNull(),
  expiresAt: timestamp("expires_at", { precision: 3, withTimezone: true, mode: "date" }).notNull(),
});
