import { index, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";

/** mppx's key-value store (replay markers, challenge state), shared by every app instance. */
export const mppStore = pgTable(
  "mpp_store",
  {
    key: text("key").primaryKey(),
    value: jsonb("value").notNull(),
    expiresAt: timestamp("expires_at", { precision: 3, withTimezone: true, mode: "date" }),
  },
  (t) => [index("mpp_store_expires_idx").on(t.expiresAt)],
);
