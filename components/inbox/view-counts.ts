import type { InboxFilters, InboxItem } from "@/lib/api-client/types";

/**
 * Whether a filter beyond type and open/resolved narrows the list: the tabs' counts, which count a whole type,
 * would then describe another set than the rows shown.
 */
export function isNarrowed(filters: InboxFilters): boolean {
  return Boolean(filters.severity || filters.stage || filters.label || filters.answer || filters.q);
}

const rowsOf = (n: number) => `${n} ${n === 1 ? "row" : "rows"}`;

/**
 * What the end of the list says: the rows that match the view, counted as the tabs count them (a group of
 * duplicates is one row). A report resolved here stays in place until the list is read again, so the Open
 * view does not jump under the pointer: it is named apart, and the count matches the tabs, read again after
 * the resolve.
 */
export function listEnd(items: readonly Pick<InboxItem, "resolved">[], filters: InboxFilters): string {
  const left =
    filters.status === "open"
      ? items.filter((i) => i.resolved).length
      : filters.status === "resolved"
        ? items.filter((i) => !i.resolved).length
        : 0;
  const matching = items.length - left;
  const what = isNarrowed(filters) ? `${rowsOf(matching)} match` : rowsOf(matching);
  const since =
    left > 0
      ? ` (and ${left} ${filters.status === "open" ? "resolved" : "reopened"} since the list loaded)`
      : "";
  return `${what}${since}, duplicates grouped · that is all`;
}
