import { index, pgTable, text } from "drizzle-orm/pg-core";
import { instant } from "./columns";

/** Sign-in nonces the server issued; a proof is accepted only by consuming its nonce, once. */
export const siwxNonces = pgTable(
  "siwx_nonces",
  {
    nonce: text("nonce").primaryKey(),
    issuedAt: instant("issued_at").notNull(),
    expiresAt: instant("expires_at").notNull(),
    consumedAt: instant("consumed_at"),
    consumedBy: text("consumed_by"),
  },
  (t) => [index("siwx_nonces_expires_idx").on(t.expiresAt)],
);
