import { FEEDBACK_STATUSES } from "./form-schemas";
import type { FeedbackStatus, FeedbackType, InboxFilters, Severity } from "./types";

export { FEEDBACK_STATUSES };

export const TYPES = ["bug", "feature", "feedback"] as const satisfies readonly FeedbackType[];
export const SEVERITIES = ["low", "medium", "high", "critical"] as const satisfies readonly Severity[];

/** Reads inbox filters from URL parameters; anything unknown means "any". Server and browser agree. */
export function parseInboxFilters(get: (key: string) => string | null | undefined): InboxFilters {
  const type = get("type");
  const severity = get("severity");
  const status = get("status");
  const stage = get("stage");
  const answer = get("answer");
  return {
    sort: get("sort") === "reports" ? "reports" : undefined,
    label: get("label")?.trim().slice(0, 30) || undefined,
    answer: answer === "confirmed" || answer === "disputed" ? answer : undefined,
    stage: FEEDBACK_STATUSES.includes(stage as FeedbackStatus) ? (stage as FeedbackStatus) : undefined,
    type: TYPES.includes(type as FeedbackType) ? (type as FeedbackType) : undefined,
    severity: SEVERITIES.includes(severity as Severity) ? (severity as Severity) : undefined,
    status: status === "resolved" || status === "all" ? status : "open",
    q: get("q")?.trim() || undefined,
  };
}

/** Items per inbox page. */
const INBOX_PAGE_SIZE = 50;

/** The query string of GET /api/namespace/list for these filters. */
export function inboxListParams(namespace: string, filters: InboxFilters, cursor?: string): URLSearchParams {
  // The dashboard shows one row per group of duplicates.
  const query = new URLSearchParams({ namespace, limit: String(INBOX_PAGE_SIZE), grouped: "true" });
  if (filters.type) query.set("type", filters.type);
  if (filters.severity) query.set("severity", filters.severity);
  if (filters.status !== "all") query.set("resolved", String(filters.status === "resolved"));
  if (filters.stage) query.set("status", filters.stage);
  if (filters.sort) query.set("sort", filters.sort);
  if (filters.label) query.set("label", filters.label);
  if (filters.answer) query.set("confirmation", filters.answer);
  if (filters.q) query.set("q", filters.q);
  if (cursor) query.set("cursor", cursor);
  return query;
}

/** Where the export of this view downloads from (the session cookie signs it in). */
export function exportHref(namespace: string, filters: InboxFilters, format: "csv" | "json"): string {
  const query = inboxListParams(namespace, filters);
  // An export holds every report, grouped or not, newest first.
  query.delete("limit");
  query.delete("grouped");
  query.delete("sort");
  query.set("format", format);
  return `/api/namespace/export?${query}`;
}
