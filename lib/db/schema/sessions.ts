import { index, pgTable, text } from "drizzle-orm/pg-core";
import { instant } from "./columns";

/** Browser sessions opened by a SIWE sign-in; the cookie holds a random token, the table only its hash. */
export const sessions = pgTable(
  "sessions",
  {
    tokenHash: text("token_hash").primaryKey(),
    address: text("address").notNull(),
    chainId: text("chain_id").notNull(),
    /** The chain a contract wallet signed in on (an identity there only); null for a plain key. */
    contractOn: text("contract_on"),
    createdAt: instant("created_at").notNull().defaultNow(),
    expiresAt: instant("expires_at").notNull(),
    revokedAt: instant("revoked_at"),
  },
  (t) => [index("sessions_expires_idx").on(t.expiresAt)],
);
