import { index, pgTable, text, timestamp } from "drizzle-orm/pg-core";

/** A registered namespace; its name is the key feedback is filed under, registered or not. */
export const namespaces = pgTable(
  "namespaces",
  {
    name: text("name").primaryKey(),
    description: text("description"),
    webhookUrl: text("webhook_url"),
    /** Standard Webhooks signing secret ("whsec_" + base64); the owner can read and rotate it. */
    webhookSecret: text("webhook_secret"),
    ownerWallet: text("owner_wallet").notNull(),
    paymentId: text("payment_id").notNull().unique(),
    createdAt: timestamp("created_at", { precision: 3, withTimezone: true, mode: "date" }).notNull(),
  },
  (t) => [index("namespaces_owner_idx").on(t.ownerWallet)],
);
