import { sql } from "drizzle-orm";
import { index, integer, jsonb, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { instant } from "./columns";

/** "folded": a chat-format event sent in another delivery's message (`foldedInto`), never on its own. */
export type DeliveryStatus = "pending" | "delivered" | "failed" | "folded";

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
    nextAttemptAt: instant("next_attempt_at").notNull().defaultNow(),
    lockedUntil: instant("locked_until"),
    lastStatusCode: integer("last_status_code"),
    lastError: text("last_error"),
    lastAttemptAt: instant("last_attempt_at"),
    deliveredAt: instant("delivered_at"),
    createdAt: instant("created_at").notNull().defaultNow(),
    /** On a re-send: the delivery it copies (same event, same body, a new webhook-id). */
    resentFrom: text("resent_from"),
    /** On a delivery the owner re-sent: its copy. Set by a conditional update, so a delivery is re-sent once. */
    resentAs: text("resent_as"),
    /** The owner action that queued it: chat formats send the events of one action as one message. */
    actionId: text("action_id"),
    /** On a folded event: the delivery whose chat message carries it. */
    foldedInto: text("folded_into"),
    /** The last attempt's body, exactly as POSTed: the stored event, or the chat message built from it. */
    sentBody: text("sent_body"),
    /**
     * On a reporter's callback event: the item whose callback receives it (its URL and secret, read at
     * send time). Null for the namespace's own webhook; the owner's delivery log shows only those.
     */
    callbackFor: text("callback_for"),
    /** The first characters of the receiver's last answer, for the log. */
    lastResponseExcerpt: text("last_response_excerpt"),
  },
  (t) => [
    index("webhook_deliveries_due_idx").on(t.status, t.nextAttemptAt),
    index("webhook_deliveries_ns_idx").on(t.namespace, t.createdAt.desc()),
    uniqueIndex("webhook_deliveries_resent_from_uq").on(t.resentFrom).where(sql`${t.resentFrom} is not null`),
    index("webhook_deliveries_action_idx").on(t.namespace, t.actionId).where(sql`${t.actionId} is not null`),
    index("webhook_deliveries_folded_into_idx").on(t.foldedInto).where(sql`${t.foldedInto} is not null`),
  ],
);
