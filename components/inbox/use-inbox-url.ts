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
    (changes: Changes) => {
      const next = new URLSearchParams(params.toString());
      for (const [key, value] of Object.entries(changes)) {
        if (value == null || value === "") next.delete(key);
        else next.set(key, value);
      }
      const query = next.toString();
      return query ? `${pathname}?${query}` : pathname;
    },
    [params, pathname],
  );

  // Native history calls are shallow in the App Router: the URL and useSearchParams change, but no
  // server render runs; React Query fetches what the new filters need, and nothing more.
  const update = useCallback(
    (changes: Changes, mode: "push" | "replace" = "replace") => {
      const href = hrefWith(changes);
      if (mode === "push") window.history.pushState(null, "", href);
      else window.history.replaceState(null, "", href);
    },
    [hrefWith],
  );

  return { filters, selectedId: params.get("item"), hrefWith, update };
}
