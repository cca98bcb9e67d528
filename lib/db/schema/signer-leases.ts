import { pgTable, text } from "drizzle-orm/pg-core";
import { instant } from "./columns";

/**
 * No longer read or written: which instance may sign with a key whose nonces are sequential is now a
 * session-level advisory lock (lib/payment/signer-lease.ts), which ends with its holder. Kept until a
 * migration drops it.
 */
export const signerLeases = pgTable("signer_leases", {
  address: text("address").primaryKey(),
  holder: text("holder").notNull(),
  expiresAt: instant("expires_at").notNull(),
});
