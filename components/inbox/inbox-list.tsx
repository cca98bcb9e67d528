import type { InfiniteData, UseInfiniteQueryResult } from "@tanstack/react-query";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { ErrorState, SkeletonRows } from "@/components/ui/states";
import { explainError, isRetryable } from "@/lib/api-client/explain";
import type { FeedbackCounts, InboxFilters, InboxItem, InboxPage } from "@/lib/api-client/types";
import { EmptyInbox } from "./empty-inbox";
import { InboxRow } from "./inbox-row";
import { useLoadOnScroll } from "./use-load-on-scroll";
import { listEnd } from "./view-counts";

type Props = {
  owner: string;
  namespace: string;
  /** Changes the view's filters (in the URL). */
  onChange: (changes: Record<string, string | null>) => void;
  /** A link to the view with these changes. */
  hrefWith: (changes: Record<string, string | null>) => string;
  query: UseInfiniteQueryResult<InfiniteData<InboxPage>>;
  items: InboxItem[];
  filters: InboxFilters;
  counts: FeedbackCounts | undefined;
  selectedId: string | null;
  hrefFor: (id: string) => string;
  onOpen: (id: string) => void;
  picked: ReadonlySet<string>;
  onPick: (id: string, range: boolean) => void;
};

/** The inbox's rows, newest first; the next page loads when the reader scrolls to the end, or on "Load more". */
export function InboxList(props: Props) {
  const {
    owner,
    namespace,
    onChange,
    hrefWith,
    query,
    items,
    filters,
    counts,
    selectedId,
    hrefFor,
    onOpen,
    picked,
    onPick,
  } = props;
  const [sentinel, setSentinel] = useState<HTMLDivElement | null>(null);
  const { hasNextPage, isFetchingNextPage, isFetchNextPageError, fetchNextPage } = query;
  // Never cancel a page already on its way (the default would fetch it twice).
  const loadMore = () => void fetchNextPage({ cancelRefetch: false });
  // Only scrolling loads by itself: bringing "Load more" into view to press it must not load a page
  // too, or the new rows land where the pointer is about to click.
  useLoadOnScroll(sentinel, hasNextPage && !isFetchingNextPage && !isFetchNextPageError, loadMore);

  if (query.isPending) return <SkeletonRows rows={8} />;
  if (query.isError && items.length === 0) {
    return (
      <ErrorState
        message={explainError(query.error, "load")}
        onRetry={isRetryable(query.error) ? () => query.refetch() : undefined}
      />
    );
  }
  if (items.length === 0) {
    return (
      <EmptyInbox
        owner={owner}
        namespace={namespace}
        filters={filters}
        counts={counts}
        hrefWith={hrefWith}
        onChange={onChange}
      />
    );
  }
  return (
    <div aria-busy={query.isFetching || undefined}>
      <ul aria-label="Feedback items" className="divide-y divide-zinc-100">
        {items.map((item) => (
          <li key={item.id} className="flex items-stretch">
            <label className="flex shrink-0 cursor-pointer items-start pt-3.5 pl-3">
              <input
                type="checkbox"
                checked={picked.has(item.id)}
                onChange={() => {}}
                onClick={(e) => onPick(item.id, e.shiftKey)}
                aria-label={`Select "${item.title}"`}
                className="size-4 rounded border-zinc-300 accent-indigo-600"
              />
            </label>
            <div className="min-w-0 flex-1">
              <InboxRow
                item={item}
                href={hrefFor(item.id)}
                selected={item.id === selectedId}
                onOpen={onOpen}
              />
            </div>
          </li>
        ))}
      </ul>
      <div ref={setSentinel} className="flex justify-center p-4">
        {hasNextPage ? (
          <Button variant="secondary" size="sm" busy={isFetchingNextPage} onClick={loadMore}>
            Load more
          </Button>
        ) : (
          <p className="text-xs text-zinc-500">{listEnd(items, filters)}</p>
        )}
      </div>
      {query.isFetchNextPageError ? (
        <ErrorState
          message={explainError(query.error, "load")}
          onRetry={isRetryable(query.error) ? () => fetchNextPage() : undefined}
        />
      ) : null}
    </div>
  );
}
