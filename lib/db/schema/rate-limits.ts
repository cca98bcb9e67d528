import { integer, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { instant } from "./columns";

/** Fixed-window request counters shared by every instance: one row per key per window. */
export const rateLimits = pgTable(
  "rate_limits",
  {
    key: text("key").notNull(),
    windowStart: instant("window_start").notNull(),
    count: integer("count").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.key, t.windowStart] })],
);
