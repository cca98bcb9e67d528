import { useInfiniteQuery } from "@tanstack/react-query";
import type { MouseEvent } from "react";
import { Button } from "@/components/ui/button";
import { InboxIcon } from "@/components/ui/icons";
import { EmptyState } from "@/components/ui/states";
import { inboxQuery } from "@/lib/api-client/queries";
import type { InboxFilters } from "@/lib/api-client/types";

type Changes = Record<string, string | null>;
type Props = {
  owner: string;
  namespace: string;
  filters: InboxFilters;
  hrefWith: (changes: Changes) => string;
  onChange: (changes: Changes) => void;
};

/** Every filter but the open/resolved view, as the URL names them: what "Clear filters" removes. */
const FILTERS: Changes = {
  type: null,
  severity: null,
  stage: null,
  label: null,
  q: null,
  sort: null,
  item: null,
};

const OTHER = { open: ["resolved", "Resolved"], resolved: ["open", "Open"] } as const;

/** Whether anything narrows the view beyond open or resolved. */
function isFiltered(filters: InboxFilters): boolean {
  return Boolean(filters.type || filters.severity || filters.stage || filters.label || filters.q);
}

/**
 * An empty view, and the way out of it: when filters hide everything, how many rows the same filters find
 * under the other status (a link to them) and "Clear filters".
 */
export function EmptyInbox({ owner, namespace, filters, hrefWith, onChange }: Props) {
  const filtered = isFiltered(filters);
  if (!filtered) {
    return (
      <EmptyState icon={<InboxIcon />} title={filters.status === "open" ? "Inbox zero" : "No items here"}>
        {filters.status === "open"
          ? "Every item is resolved. New feedback from agents appears here."
          : "Agents have not sent anything that fits this view yet."}
      </EmptyState>
    );
  }
  return (
    <EmptyState icon={<InboxIcon />} title="Nothing matches these filters">
      {filters.status !== "all" ? (
        <Elsewhere
          owner={owner}
          namespace={namespace}
          filters={filters}
          hrefWith={hrefWith}
          onChange={onChange}
        />
      ) : null}
      <Button size="sm" variant="secondary" className="mt-3" onClick={() => onChange(FILTERS)}>
        Clear filters
      </Button>
    </EmptyState>
  );
}

/** The same filters under the other status: "3 matches under Resolved", a link there. */
function Elsewhere({ owner, namespace, filters, hrefWith, onChange }: Props) {
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
