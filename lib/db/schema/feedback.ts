import { sql } from "drizzle-orm";
import { boolean, index, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";

export type FeedbackTarget = { kind: string; value: string; host: string };

/** One submitted feedback item, filed under a namespace name whether or not it is registered yet. */
export const feedback = pgTable(
  "feedback",
  {
    id: text("id").primaryKey(),
    namespace: text("namespace").notNull(),
    type: text("type").notNull(),
    title: text("title").notNull(),
    description: text("description").notNull(),
    severity: text("severity"),
    steps: jsonb("steps").$type<string[]>(),
    expected: text("expected"),
    actual: text("actual"),
    context: text("context"),
    metadata: jsonb("metadata").$type<Record<string, unknown>>(),
    targets: jsonb("targets").$type<FeedbackTarget[]>().notNull(),
    verified: boolean("verified").notNull().default(false),
    submitterDid: text("submitter_did"),
    submitterWallet: text("submitter_wallet"),
    resolved: boolean("resolved").notNull().default(false),
    resolveMessage: text("resolve_message"),
    resolvedAt: timestamp("resolved_at", { precision: 3, withTimezone: true, mode: "date" }),
    resolvedBy: text("resolved_by"),
    rewardAmount: text("reward_amount"),
    rewardTxHash: text("reward_tx_hash"),
    /** Set while a paid resolve holds the item, so a free resolve cannot slip in after it charged. */
    resolvingPaymentId: text("resolving_payment_id"),
    paymentId: text("payment_id").notNull().unique(),
    createdAt: timestamp("created_at", { precision: 3, withTimezone: true, mode: "date" }).notNull(),
  },
  (t) => [
    // Keyset pages: newest first, id breaks ties; one index per filter keeps pages flat as data grows.
    index("feedback_ns_created_idx").on(t.namespace, t.createdAt.desc(), t.id.desc()),
    index("feedback_ns_type_created_idx").on(t.namespace, t.type, t.createdAt.desc(), t.id.desc()),
    index("feedback_ns_severity_created_idx").on(t.namespace, t.severity, t.createdAt.desc(), t.id.desc()),
    // Finds items still held by a payment that failed or was refunded, to release them.
    index("feedback_resolving_payment_idx")
      .on(t.resolvingPaymentId)
      .where(sql`${t.resolvingPaymentId} is not null`),
    index("feedback_submitter_created_idx")
      .on(t.submitterWallet, t.createdAt.desc(), t.id.desc())
      .where(sql`${t.submitterWallet} is not null`),
  ],
);
