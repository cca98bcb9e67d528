import { keepPreviousData, useInfiniteQuery, useQuery } from "@tanstack/react-query";
import { countsQuery, inboxQuery, itemQuery } from "../queries";
import type { InboxFilters, InboxItem } from "../types";

/** A namespace's inbox under the given filters, a page at a time. */
export function useInbox(owner: string, namespace: string, filters: InboxFilters) {
  // Keep showing the previous result while a new filter or search loads, instead of flashing empty.
  return useInfiniteQuery({ ...inboxQuery(owner, namespace, filters), placeholderData: keepPreviousData });
}

/** Counts per type, open and resolved. */
export function useCounts(owner: string, namespace: string) {
  return useQuery(countsQuery(owner, namespace));
}

/** One item's full record; the list's copy shows at once while the full one loads. */
export function useFeedbackItem(owner: string, id: string | null, fromList?: InboxItem) {
  return useQuery({
    ...itemQuery(owner, id ?? ""),
    enabled: Boolean(id),
    placeholderData: fromList ? { ...fromList, context: null, history: [], group: [] } : undefined,
  });
}
