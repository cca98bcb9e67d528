import { useInfiniteQuery } from "@tanstack/react-query";
import type { MouseEvent } from "react";
import { Button } from "@/components/ui/button";
import { InboxIcon } from "@/components/ui/icons";
import { EmptyState } from "@/components/ui/states";
import { inboxQuery } from "@/lib/api-client/queries";
import type { FeedbackCounts, InboxFilters } from "@/lib/api-client/types";

type Changes = Record<string, string | null>;
type Props = {
  owner: string;
  namespace: string;
  filters: InboxFilters;
  /** The namespace's counts, to tell a new namespace from one whose items are all resolved. */
  counts: FeedbackCounts | undefined;
  hrefWith: (changes: Changes) => string;
  onChange: (changes: Changes) => void;
};

/**
 * Every filter, the open/resolved view included, as the URL names them: "Clear filters" goes back to the
 * inbox as it first opens (the open items), not to an empty corner of it.
 */
const FILTERS: Changes = {
  status: null,
  type: null,
  severity: null,
  stage: null,
  label: null,
  answer: null,
  q: null,
  sort: null,
  item: null,
};

const OTHER = { open: ["resolved", "Resolved"], resolved: ["open", "Open"] } as const;

/** Whether anything narrows the view beyond open or resolved. */
function isFiltered(filters: InboxFilters): boolean {
  return Boolean(
    filters.type || filters.severity || filters.stage || filters.label || filters.answer || filters.q,
  );
}

/**
 * An empty view, and the way out of it: when filters hide everything, how many rows the same filters find
 * under the other status (a link to them) and "Clear filters".
 */
export function EmptyInbox(props: Props) {
  const { namespace, filters, counts, hrefWith, onChange } = props;
  if (!isFiltered(filters)) {
    if (!counts) return null;
    const open = counts.total.open;
    const resolved = counts.total.resolved;
    if (open + resolved === 0) {
      return (
        <EmptyState icon={<InboxIcon />} title="No feedback yet">
          Nothing has been sent to <span className="font-mono">{namespace}</span> so far. When an agent pays
          to send a bug, a feature request or feedback to it, the report appears here.
        </EmptyState>
      );
    }
    // Nothing in this view, but the other one holds reports: say how many, with a link there.
    const [status, label, count] =
      filters.status === "resolved"
        ? (["open", "open", open] as const)
        : (["resolved", "resolved", resolved] as const);
    const changes = { status: status === "open" ? null : status, item: null };
    const follow = (event: MouseEvent<HTMLAnchorElement>) => {
      event.preventDefault();
      onChange(changes);
    };
    return (
      <EmptyState
        icon={<InboxIcon />}
        title={filters.status === "resolved" ? "Nothing resolved yet" : "Inbox zero"}
      >
        {filters.status === "resolved" ? "No item has been resolved so far. " : "Every item is resolved. "}
        <a
          href={hrefWith(changes)}
          onClick={follow}
          className="font-medium text-indigo-700 underline underline-offset-2"
        >
          {count} {label} {count === 1 ? "report" : "reports"}
        </a>
      </EmptyState>
    );
  }
  return (
    <EmptyState icon={<InboxIcon />} title="Nothing matches these filters">
      {filters.status !== "all" ? <Elsewhere {...props} /> : null}
      <Button size="sm" variant="secondary" className="mt-3" onClick={() => onChange(FILTERS)}>
        Clear filters
      </Button>
    </EmptyState>
  );
}

/** The same filters under the other status: "3 matches under Resolved", a link there. */
function Elsewhere({ owner, namespace, filters, hrefWith, onChange }: Omit<Props, "counts">) {
  const [status, label] = OTHER[filters.status as "open" | "resolved"];
  const query = useInfiniteQuery({
    ...inboxQuery(owner, namespace, { ...filters, status }),
    select: (data) => ({ count: data.pages[0]?.count ?? 0, more: Boolean(data.pages[0]?.nextCursor) }),
  });
  if (!query.data) return <p>Try another type, severity or search.</p>;
  if (query.data.count === 0) return <p>Nothing under {label} either.</p>;
  const changes = { status: status === "open" ? null : status, item: null };
  const follow = (event: MouseEvent<HTMLAnchorElement>) => {
    event.preventDefault();
    onChange(changes);
  };
  const n = `${query.data.count}${query.data.more ? "+" : ""}`;
  return (
    <p>
      <a
        href={hrefWith(changes)}
        onClick={follow}
        className="font-medium text-indigo-700 underline underline-offset-2"
      >
        {n} {query.data.count === 1 && !query.data.more ? "match" : "matches"} under {label}
      </a>
    </p>
  );
}
