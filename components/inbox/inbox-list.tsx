import type { InfiniteData, UseInfiniteQueryResult } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import { Button } from "@/components/ui/button";
import { InboxIcon } from "@/components/ui/icons";
import { EmptyState, ErrorState, SkeletonRows } from "@/components/ui/states";
import { explainError } from "@/lib/api-client/explain";
import type { InboxFilters, InboxItem, InboxPage } from "@/lib/api-client/types";
import { InboxRow } from "./inbox-row";

type Props = {
  query: UseInfiniteQueryResult<InfiniteData<InboxPage>>;
  items: InboxItem[];
  filters: InboxFilters;
  selectedId: string | null;
  hrefFor: (id: string) => string;
  onOpen: (id: string) => void;
};

/** The inbox's rows, newest first; the next page loads when the end scrolls into view or on "Load more". */
export function InboxList({ query, items, filters, selectedId, hrefFor, onOpen }: Props) {
  const sentinel = useRef<HTMLDivElement>(null);
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = query;

  useEffect(() => {
    const node = sentinel.current;
    if (!node || !hasNextPage) return;
    const observer = new IntersectionObserver(
      (entries) => {
        // Never cancel a page already on its way (the default would fetch it twice).
        if (entries.some((e) => e.isIntersecting) && !isFetchingNextPage)
          void fetchNextPage({ cancelRefetch: false });
      },
      { rootMargin: "400px" },
    );
    observer.observe(node);
    return () => observer.disconnect();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);

  if (query.isPending) return <SkeletonRows rows={8} />;
  if (query.isError && items.length === 0) {
    return <ErrorState message={explainError(query.error, "load")} onRetry={() => query.refetch()} />;
  }
  if (items.length === 0) {
    const filtered = filters.type || filters.severity || filters.q;
    return (
      <EmptyState
        icon={<InboxIcon />}
        title={
          filtered
            ? "Nothing matches these filters"
            : filters.status === "open"
              ? "Inbox zero"
              : "No items here"
        }
      >
        {filtered
          ? "Try another type, severity or search."
          : filters.status === "open"
            ? "Every item is resolved. New feedback from agents appears here."
            : "Agents have not sent anything that fits this view yet."}
      </EmptyState>
    );
  }
  return (
    <div aria-busy={query.isFetching || undefined}>
      <ul aria-label="Feedback items" className="divide-y divide-zinc-100">
        {items.map((item) => (
          <li key={item.id}>
            <InboxRow item={item} href={hrefFor(item.id)} selected={item.id === selectedId} onOpen={onOpen} />
          </li>
        ))}
      </ul>
      <div ref={sentinel} className="flex justify-center p-4">
        {hasNextPage ? (
          <Button
            variant="secondary"
            size="sm"
            busy={isFetchingNextPage}
            onClick={() => fetchNextPage({ cancelRefetch: false })}
          >
            Load more
          </Button>
        ) : (
          <p className="text-xs text-zinc-400">
            {items.length} {items.length === 1 ? "item" : "items"} · that is all
          </p>
        )}
      </div>
      {query.isFetchNextPageError ? (
        <ErrorState message={explainError(query.error, "load")} onRetry={() => fetchNextPage()} />
      ) : null}
    </div>
  );
}
