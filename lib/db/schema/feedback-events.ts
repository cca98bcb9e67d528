import { index, jsonb, pgTable, text } from "drizzle-orm/pg-core";
import type { FeedbackStatus } from "@/lib/schemas/feedback";
import { instant } from "./columns";

/** What happened to an item: every status change, message and follow-up, in order, for its history. */
export type FeedbackEventKind =
  | "status"
  | "follow_up"
  | "merged"
  | "unmerged"
  | "suggested"
  | "labels"
  | "confirmation";

/** An item's history, one row per change; written in the same transaction as the change. */
export const feedbackEvents = pgTable(
  "feedback_events",
  {
    id: text("id").primaryKey(),
    feedbackId: text("feedback_id").notNull(),
    namespace: text("namespace").notNull(),
    kind: text("kind").$type<FeedbackEventKind>().notNull(),
    /** The wallet that made the change: the owner, or the submitter answering a question. */
    actor: text("actor").notNull(),
    fromStatus: text("from_status").$type<FeedbackStatus>(),
    toStatus: text("to_status").$type<FeedbackStatus>(),
    message: text("message"),
    /** A follow-up's added details (steps, expected, actual, context), as the submitter sent them. */
    details: jsonb("details").$type<Record<string, unknown>>(),
    createdAt: instant("created_at").notNull(),
  },
  (t) => [
    index("feedback_events_item_idx").on(t.feedbackId, t.createdAt, t.id),
    // A namespace's changes over a day (the daily webhook digest).
    index("feedback_events_ns_created_idx").on(t.namespace, t.createdAt),
  ],
);
