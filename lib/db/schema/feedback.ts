import { sql } from "drizzle-orm";
import { boolean, check, customType, index, integer, jsonb, pgTable, text } from "drizzle-orm/pg-core";
import type { FeedbackStatus } from "@/lib/schemas/feedback";
import { instant } from "./columns";

export type FeedbackTarget = { kind: string; value: string; host: string };
export type GroupKind = "merged" | "suggested";

const tsvector = customType<{ data: string }>({ dataType: () => "tsvector" });

/**
 * What full-text search reads, weighted: the title first, then the description, then the steps, the
 * expected and the actual result. Kept by the database itself (a stored generated column).
 */
const SEARCH_DOCUMENT = sql`setweight(to_tsvector('english', "title"), 'A')
  || setweight(to_tsvector('english', "description"), 'B')
  || setweight(jsonb_to_tsvector('english', coalesce("steps", '[]'::jsonb), '["string"]'), 'C')
  || setweight(to_tsvector('english', coalesce("expected", '') || ' ' || coalesce("actual", '')), 'C')`;

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
    /** The chain the submitter's contract wallet paid on (its address is its own there only); null for a plain key. */
    submitterContractOn: text("submitter_contract_on"),
    resolved: boolean("resolved").notNull().default(false),
    /** The triage status; "resolved" exactly when `resolved` is true (a check keeps them together). */
    status: text("status").$type<FeedbackStatus>().notNull().default("open"),
    resolveMessage: text("resolve_message"),
    resolvedAt: instant("resolved_at"),
    resolvedBy: text("resolved_by"),
    rewardAmount: text("reward_amount"),
    rewardTxHash: text("reward_tx_hash"),
    /** Set while a paid resolve holds the item, so a free resolve cannot slip in after it charged. */
    resolvingPaymentId: text("resolving_payment_id"),
    paymentId: text("payment_id").notNull().unique(),
    /**
     * Duplicates: the id of the report this one was grouped under (its group's first report), or
     * null for a report that heads its own group. Groups are one level deep.
     */
    groupId: text("group_id"),
    /** How it joined its group: merged by the owner, or suggested by the service as alike; null for a head. */
    groupKind: text("group_kind").$type<GroupKind>(),
    /** On a group's head: how many reports the group holds, itself included (votes). */
    reportCount: integer("report_count").notNull().default(1),
    /** The owner's labels, sorted, each at most once. */
    labels: text("labels").array().notNull().default(sql`'{}'::text[]`),
    /**
     * The submitter's answer to a resolution: "fixed" or "not_fixed" (which reopened the item), with its
     * note, when it came, and which resolution it answered (that resolution's resolved_at): one answer per
     * resolution, and a new resolution may be answered again.
     */
    confirmation: text("confirmation").$type<"fixed" | "not_fixed">(),
    confirmationNote: text("confirmation_note"),
    confirmedAt: instant("confirmed_at"),
    confirmedResolutionAt: instant("confirmed_resolution_at"),
    /**
     * The submitter's callback (issue events about this report to its own URL), signed with its own
     * Standard Webhooks secret; both or neither. Only its submitter ever reads them back.
     */
    callbackUrl: text("callback_url"),
    callbackSecret: text("callback_secret"),
    /**
     * The published known issue its reporter said it is about when it paid (duplicateOf): it joined that
     * issue's group as it was stored, and its reporter's callback hears when the issue is resolved.
     */
    duplicateOf: text("duplicate_of"),
    /** The owner left it out of the namespace's published known issues. */
    knownHidden: boolean("known_hidden").notNull().default(false),
    /**
     * The owner has seen it for the known issues list: the list was published with it in the inbox, or the
     * owner triaged, merged into or listed it since. A report filed after publishing stays off the public
     * list until then (its title is a stranger's words).
     */
    knownListed: boolean("known_listed").notNull().default(false),
    /**
     * The owner's note on its resolution for everyone but this report's own reporter: the reporters who said
     * "me too" read it as their resolution's message, and the published known issues list shows it.
     */
    publicNote: text("public_note"),
    /** When the service last looked for similar reports to group this one with; null: not yet. */
    groupedAt: instant("grouped_at"),
    createdAt: instant("created_at").notNull(),
    search: tsvector("search").generatedAlwaysAs(SEARCH_DOCUMENT),
    /**
     * What the duplicate suggestion compares (lib/domain/feedback/alike.ts), kept by the database so a
     * grouping reads it instead of computing it per candidate: the title's specifics and the stemmed words of
     * title and description, common synonyms made one (feedback_alike_words, migration 0028).
     * feedback_title_specifics is defined by migration 0018.
     */
    alikeSpecifics: text("alike_specifics").array().generatedAlwaysAs(sql`feedback_title_specifics("title")`),
    alikeWords: text("alike_words")
      .array()
      .generatedAlwaysAs(sql`feedback_alike_words("title" || ' ' || "description")`),
  },
  (t) => [
    check(
      "feedback_status_check",
      sql`${t.status} in ('open', 'acknowledged', 'needs_info', 'in_progress', 'wont_fix', 'duplicate', 'spam', 'resolved')`,
    ),
    check("feedback_status_resolved_check", sql`(${t.status} = 'resolved') = ${t.resolved}`),
    check("feedback_labels_check", sql`cardinality(${t.labels}) <= 10`),
    check(
      "feedback_confirmation_check",
      sql`${t.confirmation} in ('fixed', 'not_fixed') and ${t.confirmedAt} is not null and ${t.confirmedResolutionAt} is not null or ${t.confirmation} is null and ${t.confirmedAt} is null and ${t.confirmedResolutionAt} is null`,
    ),
    check("feedback_callback_check", sql`(${t.callbackUrl} is null) = (${t.callbackSecret} is null)`),
    check(
      "feedback_group_kind_check",
      sql`${t.groupKind} in ('merged', 'suggested') and ${t.groupId} is not null or ${t.groupKind} is null and ${t.groupId} is null`,
    ),
    index("feedback_labels_idx").using("gin", t.labels),
    // A group's members, and the heads of a namespace by votes.
    index("feedback_group_idx")
      .on(t.groupId, t.createdAt.desc(), t.id.desc())
      .where(sql`${t.groupId} is not null`),
    index("feedback_ns_heads_votes_idx")
      .on(t.namespace, t.reportCount.desc(), t.createdAt.desc(), t.id.desc())
      .where(sql`${t.groupId} is null`),
    // Reports not yet compared with the others (the grouping sweep).
    index("feedback_ungrouped_idx").on(t.createdAt).where(sql`${t.groupedAt} is null`),
    index("feedback_ns_status_created_idx").on(t.namespace, t.status, t.createdAt.desc(), t.id.desc()),
    // Search: ranked full text (stemmed words), and literal substrings of the title and description.
    index("feedback_search_idx").using("gin", t.search),
    index("feedback_title_trgm_idx").using("gin", sql`${t.title} gin_trgm_ops`),
    index("feedback_description_trgm_idx").using("gin", sql`${t.description} gin_trgm_ops`),
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
