import { sql } from "drizzle-orm";
import { index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";

export type DeliveryStatus = "pending" | "delivered" | "failed";

/**
 * The webhook outbox: one row per event per namespace, written in the same transaction as the event,
 * then sent by a worker that any number of instances can run (a lease in `lockedUntil`).
 */
export const webhookDeliveries = pgTable(
  "webhook_deliveries",
  {
    id: text("id").primaryKey(),
    namespace: text("namespace").notNull(),
    eventType: text("event_type").notNull(),
    payload: jsonb("payload").$type<Record<string, unknown>>().notNull(),
    status: text("status").$type<DeliveryStatus>().notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: timestamp("next_attempt_at", { precision: 3, withTimezone: true, mode: "date" })
      .notNull()
      .defaultNow(),
    lockedUntil: timestamp("locked_until", { precision: 3, withTimezone: true, mode: "date" }),
    lastStatusCode: integer("last_status_code"),
    lastError: text("last_error"),
    lastAttemptAt: timestamp("last_attempt_at", { precision: 3, withTimezone: true, mode: "date" }),
    deliveredAt: timestamp("delivered_at", { precision: 3, withTimezone: true, mode: "date" }),
    createdAt: timestamp("created_at", { precision: 3, withTimezone: true, mode: "date" })
      .notNull()
      .defaultNow(),
    /** On a re-send: the delivery it copies (same event, same body, a new webhook-id). */
    resentFrom: text("resent_from"),
    /** On a delivery the owner re-sent: its copy. Set by a conditional update, so a delivery is re-sent once. */
    resentAs: text("resent_as"),
  },
  (t) => [
    index("webhook_deliveries_due_idx").on(t.status, t.nextAttemptAt),
    index("webhook_deliveries_ns_idx").on(t.namespace, t.createdAt.desc()),
    uniqueIndex("webhook_deliveries_resent_from_uq").on(t.resentFrom).where(sql`${t.resentFrom} is not null`),
  ],
);
