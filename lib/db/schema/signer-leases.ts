import { pgTable, text, timestamp } from "drizzle-orm/pg-core";

/**
 * No longer read or written: which instance may sign with a key whose nonces are sequential is now a
 * session-level advisory lock (lib/payment/signer-lease.ts), which ends with its holder. Kept until a
 * migration drops it.
 */
export const signerLeases = pgTable("signer_leases", {
  address: text("address").primaryKey(),
  holder: text("holder").notNull(),
  expiresAt: timestamp("expires_at", { precision: 3, withTimezone: true, mode: "date" }).notNull(),
});
