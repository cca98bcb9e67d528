import type { MouseEvent } from "react";
import { ConfirmationBadge, SeverityBadge, StatusBadge, TypeBadge } from "@/components/ui/badge";
import { CheckIcon } from "@/components/ui/icons";
import { LocalTime } from "@/components/ui/local-time";
import type { InboxItem } from "@/lib/api-client/types";
import { LabelChip } from "./labels";

type Props = { item: InboxItem; href: string; selected: boolean; onOpen: (id: string) => void };

/**
 * One item in the inbox list: type, title, a line of the description, severity and age. A real link
 * (new tab, copy link work); a plain click opens the item in place without a server round trip.
 */
export function InboxRow({ item, href, selected, onOpen }: Props) {
  function open(event: MouseEvent<HTMLAnchorElement>) {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    onOpen(item.id);
  }
  return (
    <a
      href={href}
      onClick={open}
      data-item-id={item.id}
      aria-current={selected ? "true" : undefined}
      className={`group block border-l-2 px-4 py-3 transition-colors focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-indigo-600 ${
        selected ? "border-indigo-600 bg-indigo-50/50" : "border-transparent hover:bg-zinc-50"
      }`}
    >
      <div className="flex items-center gap-2">
        <TypeBadge type={item.type} />
        <span
          className={`min-w-0 flex-1 truncate text-sm font-medium ${item.resolved ? "text-zinc-500" : "text-zinc-900"}`}
        >
          {item.highlights ? <Marked fragments={item.highlights.title} /> : item.title}
        </span>
        {(item.groupReports ?? item.reportCount) > 1 ? (
          <span
            className="shrink-0 rounded-full bg-indigo-100 px-1.5 text-xs font-semibold text-indigo-800 tabular-nums"
            title={`${item.groupReports ?? item.reportCount} reports in its group, from ${item.reporters?.length ?? 1} ${(item.reporters?.length ?? 1) === 1 ? "wallet" : "wallets"}`}
          >
            ×{item.groupReports ?? item.reportCount}
          </span>
        ) : null}
        <span className="shrink-0 text-xs text-zinc-500 tabular-nums">
          <LocalTime iso={item.createdAt} relative />
        </span>
      </div>
      <div className="mt-1 flex items-center gap-2">
        <p className="min-w-0 flex-1 truncate text-xs text-zinc-500">
          {item.highlights ? <Marked fragments={item.highlights.description} /> : item.description}
        </p>
        {item.resolved ? (
          <span className="inline-flex shrink-0 items-center gap-0.5 text-xs font-medium text-emerald-700">
            <CheckIcon className="size-3.5" /> Resolved
          </span>
        ) : item.status !== "open" ? (
          <StatusBadge status={item.status} />
        ) : null}
        <ConfirmationBadge confirmation={item.confirmation} />
        {item.labels.map((l) => (
          <LabelChip key={l} label={l} />
        ))}
        <SeverityBadge severity={item.severity} />
      </div>
    </a>
  );
}

type Fragments = NonNullable<InboxItem["highlights"]>["title"];

/** Text with the parts that matched the search marked; plain text nodes only, never HTML. */
function Marked({ fragments }: { fragments: Fragments }) {
  return (
    <>
      {fragments.map((f, i) =>
        f.match ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: fragments never move; the index is their identity
          <mark key={i} className="rounded-sm bg-amber-100 px-0.5 text-zinc-900">
            {f.text}
          </mark>
        ) : (
          // biome-ignore lint/suspicious/noArrayIndexKey: as above
          <span key={i}>{f.text}</span>
        ),
      )}
    </>
  );
}
