import { index, pgTable, text, timestamp } from "drizzle-orm/pg-core";

/** Browser sessions opened by a SIWE sign-in; the cookie holds a random token, the table only its hash. */
export const sessions = pgTable(
  "sessions",
  {
    tokenHash: text("token_hash").primaryKey(),
    address: text("address").notNull(),
    chainId: text("chain_id").notNull(),
    /** The chain a contract wallet signed in on (an identity there only); null for a plain key. */
    contractOn: text("contract_on"),
    createdAt: timestamp("created_at", { precision: 3, withTimezone: true, mode: "date" })
      .notNull()
      .defaultNow(),
    expiresAt: timestamp("expires_at", { precision: 3, withTimezone: true, mode: "date" }).notNull(),
    revokedAt: timestamp("revoked_at", { precision: 3, withTimezone: true, mode: "date" }),
  },
  (t) => [index("sessions_expires_idx").on(t.expiresAt)],
);
