import { usePathname, useSearchParams } from "next/navigation";
import { useCallback, useMemo } from "react";
import { parseInboxFilters } from "@/lib/api-client/inbox-filters";
import type { InboxFilters } from "@/lib/api-client/types";

type Changes = Record<string, string | null | undefined>;

/** The inbox's state kept in the URL: filters, search and the open item, so every view is a link. */
export function useInboxUrl() {
  const params = useSearchParams();
  const pathname = usePathname();

  const filters = useMemo<InboxFilters>(() => parseInboxFilters((key) => params.get(key)), [params]);

  const hrefWith = useCallback(
    (changes: Changes) => withChanges(pathname, params.toString(), changes),
    [params, pathname],
  );

  // Native history calls are shallow in the App Router: the URL and useSearchParams change, but no
  // server render runs; React Query fetches what the new filters need, and nothing more. Each change
  // starts from the address bar, not from the last render's params: two changes made before React
  // renders again (a type, then a severity) both stay, instead of the second undoing the first.
  const update = useCallback(
    (changes: Changes, mode: "push" | "replace" = "replace") => {
      const href = withChanges(pathname, window.location.search, changes);
      if (mode === "push") window.history.pushState(null, "", href);
      else window.history.replaceState(null, "", href);
    },
    [pathname],
  );

  return { filters, selectedId: params.get("item"), hrefWith, update };
}

/** `pathname` with the query `search` changed by `changes` (null or empty removes a key). */
function withChanges(pathname: string, search: string, changes: Changes): string {
  const next = new URLSearchParams(search);
  for (const [key, value] of Object.entries(changes)) {
    if (value == null || value === "") next.delete(key);
    else next.set(key, value);
  }
  const query = next.toString();
  return query ? `${pathname}?${query}` : pathname;
}
