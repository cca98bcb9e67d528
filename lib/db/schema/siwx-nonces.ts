import { index, pgTable, text, timestamp } from "drizzle-orm/pg-core";

/** Sign-in nonces the server issued; a proof is accepted only by consuming its nonce, once. */
export const siwxNonces = pgTable(
  "siwx_nonces",
  {
    nonce: text("nonce").primaryKey(),
    issuedAt: timestamp("issued_at", { precision: 3, withTimezone: true, mode: "date" }).notNull(),
    expiresAt: timestamp("expires_at", { precision: 3, withTimezone: true, mode: "date" }).notNull(),
    consumedAt: timestamp("consumed_at", { precision: 3, withTimezone: true, mode: "date" }),
    consumedBy: text("consumed_by"),
  },
  (t) => [index("siwx_nonces_expires_idx").on(t.expiresAt)],
);
