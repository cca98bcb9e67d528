import { z } from "zod";
import { FEEDBACK_STATUSES, FEEDBACK_TYPES, type FeedbackStatus, SEVERITIES } from "./feedback";
import { line, pageLimit } from "./text";

const limit = pageLimit(50);
const cursor = z.string().min(1).max(512).optional();

const STATUS_SET = new Set<string>(FEEDBACK_STATUSES);
/** The submitters' answers an inbox can be filtered by. */
const CONFIRMATION_FILTERS = ["confirmed", "disputed"] as const;
/** One triage status or several, comma-separated ("open,needs_info"); kept in the canonical order. */
const statuses = z
  .string()
  .max(200)
  .transform((v, ctx) => {
    const asked = v.split(",").map((s) => s.trim());
    const unknown = asked.filter((s) => !STATUS_SET.has(s));
    if (unknown.length > 0) {
      ctx.addIssue({ code: "custom", message: `must be one or more of: ${FEEDBACK_STATUSES.join(", ")}` });
      return z.NEVER;
    }
    return FEEDBACK_STATUSES.filter((s) => asked.includes(s)) as FeedbackStatus[];
  })
  .meta({ description: `One or more of ${FEEDBACK_STATUSES.join(", ")}, comma-separated` });

/** The filters of an inbox view, shared by the list and its export. */
const inboxFilters = {
  namespace: line(3, 30),
  type: z.enum(FEEDBACK_TYPES, { error: `must be one of: ${FEEDBACK_TYPES.join(", ")}` }).optional(),
  severity: z.enum(SEVERITIES, { error: `must be one of: ${SEVERITIES.join(", ")}` }).optional(),
  /** Only open (false) or only resolved (true) items. */
  resolved: z
    .enum(["true", "false"], { error: "must be true or false" })
    .transform((v) => v === "true")
    .optional(),
  /** Only items in these triage statuses. */
  status: statuses.optional(),
  /** Only items carrying this label. */
  label: line(1, 30).optional(),
  /**
   * Only items whose submitter answered their resolution: confirmed (said fixed, and the item is still
   * resolved by that resolution) or disputed (said not fixed, and the item is not resolved again yet).
   */
  confirmation: z
    .enum(CONFIRMATION_FILTERS, { error: `must be one of: ${CONFIRMATION_FILTERS.join(", ")}` })
    .optional()
    .meta({
      description:
        "confirmed: the submitter said the fix worked (and the item is still resolved by it); disputed: it said not fixed (and the item is not resolved again yet)",
    }),
  /**
   * Search: the words of title, description, steps, expected and actual (stemmed, web-search syntax:
   * "quoted phrases", -excluded), or the text literally in the title or the description.
   */
  q: line(1, 200).optional(),
};

/** Query of GET /api/namespace/list. */
export const listQuerySchema = z
  .strictObject({
    ...inboxFilters,
    limit,
    cursor,
    /** One row per group of duplicates (its head, with the group's reporters), instead of every report. */
    grouped: z
      .enum(["true", "false"], { error: "must be true or false" })
      .transform((v) => v === "true")
      .default(false),
    /**
     * newest first (default), by relevance to q (the newest 5,000 matches are ranked), or by reports
     * per group (votes; with grouped=true).
     */
    sort: z
      .enum(["newest", "relevance", "reports"], { error: "must be newest, relevance or reports" })
      .default("newest"),
  })
  .refine((query) => query.sort !== "relevance" || query.q !== undefined, {
    path: ["sort"],
    error: "relevance needs a search (q)",
  })
  .refine((query) => query.sort !== "reports" || query.grouped, {
    path: ["sort"],
    error: "reports needs grouped=true",
  });
export type ListQuery = z.output<typeof listQuerySchema>;

const EXPORT_FORMATS = ["csv", "json"] as const;

/** Query of GET /api/namespace/export: a filtered view, every item of it, newest first. */
export const exportQuerySchema = z.strictObject({
  ...inboxFilters,
  format: z.enum(EXPORT_FORMATS, { error: "must be csv or json" }).default("csv"),
});
export type ExportQuery = z.output<typeof exportQuerySchema>;

/** Query of GET /api/namespace/status. */
export const statusQuerySchema = z.strictObject({ namespace: line(3, 30).optional(), limit, cursor });
export type StatusQuery = z.output<typeof statusQuerySchema>;

/** Query of GET /api/dashboard/counts. */
export const countsQuerySchema = z.strictObject({ namespace: line(3, 30) });
