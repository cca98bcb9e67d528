import { index, jsonb, pgTable, text } from "drizzle-orm/pg-core";
import { instant } from "./columns";

/** mppx's key-value store (replay markers, challenge state), shared by every app instance. */
export const mppStore = pgTable(
  "mpp_store",
  {
    key: text("key").primaryKey(),
    value: jsonb("value").notNull(),
    expiresAt: instant("expires_at"),
  },
  (t) => [index("mpp_store_expires_idx").on(t.expiresAt)],
);
