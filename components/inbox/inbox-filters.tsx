import { useEffect, useId, useRef, useState } from "react";
import { STATUS_LABELS } from "@/components/ui/badge";
import { SearchIcon } from "@/components/ui/icons";
import { FEEDBACK_STATUSES } from "@/lib/api-client/inbox-filters";
import type { FeedbackCounts, InboxFilters } from "@/lib/api-client/types";
import { SEVERITIES, TYPE_LABELS, TYPES } from "./constants";
import { LabelPicker } from "./label-picker";
import { isNarrowed } from "./view-counts";

type Props = {
  filters: InboxFilters;
  counts: FeedbackCounts | undefined;
  onChange: (changes: Record<string, string | null>) => void;
};

const STATUSES = [
  ["open", "Open"],
  ["resolved", "Resolved"],
  ["all", "All"],
] as const;

/** How many rows of the inbox (groups of duplicates) a pill stands for, and how many reports they hold. */
function tally(
  counts: FeedbackCounts | undefined,
  status: InboxFilters["status"],
  type?: keyof FeedbackCounts["byType"],
) {
  if (!counts) return null;
  const pick = (t: { open: number; resolved: number }) =>
    status === "open" ? t.open : status === "resolved" ? t.resolved : t.open + t.resolved;
  return {
    groups: pick(type ? counts.groups.byType[type] : counts.groups.total),
    reports: pick(type ? counts.byType[type] : counts.total),
  };
}

const pill = (active: boolean) =>
  `inline-flex h-8 items-center gap-1 rounded-lg px-2 text-sm font-medium whitespace-nowrap transition-colors sm:gap-1.5 sm:px-2.5 focus-visible:outline-2 focus-visible:outline-indigo-600 ${
    active ? "bg-zinc-900 text-white" : "text-zinc-600 hover:bg-zinc-100 hover:text-zinc-900"
  }`;

/**
 * Type tabs with counts, then status, severity, stage, the submitter's answer, order, label and search;
 * every change lands in the URL.
 */
export function InboxFilterBar({ filters, counts, onChange }: Props) {
  const [text, setText] = useState(filters.q ?? "");
  const searchRef = useRef<HTMLInputElement>(null);
  const severityId = useId();
  const stageId = useId();
  const sortId = useId();
  const answerId = useId();
  const moreId = useId();
  // On a phone the selects fold behind "Filters", so the first rows show without scrolling.
  const [more, setMore] = useState(false);
  // The open/resolved switch stays in sight at every size, so it is not counted among the folded filters.
  const active = [filters.severity, filters.stage, filters.answer, filters.sort, filters.label].filter(
    Boolean,
  ).length;
  const narrowed = isNarrowed(filters);

  // The search the URL has, or the one this box last sent and the URL has yet to show; and the search
  // waiting for the person to pause typing.
  const sent = useRef(filters.q ?? "");
  const pending = useRef<ReturnType<typeof setTimeout>>(undefined);

  // Follow the URL when it changes from elsewhere ("Clear filters", the back button, a link): a search
  // still waiting for a pause is dropped, so the old text never comes back, however slow the render.
  // While the person types in the box, their text stands.
  useEffect(() => {
    const q = filters.q ?? "";
    if (q === sent.current) return;
    sent.current = q;
    if (document.activeElement === searchRef.current) return;
    clearTimeout(pending.current);
    setText(q);
  }, [filters.q]);
  useEffect(() => () => clearTimeout(pending.current), []);

  // Search as the person types, once they pause.
  const searchAsTyped = (value: string) => {
    setText(value);
    clearTimeout(pending.current);
    pending.current = setTimeout(() => {
      const trimmed = value.trim();
      if (trimmed === sent.current) return;
      sent.current = trimmed;
      onChange({ q: trimmed || null, item: null });
    }, 300);
  };

  // "/" jumps to the search box, as in most inbox tools.
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const target = event.target as HTMLElement;
      if (event.key !== "/" || target.closest("input, textarea, select, dialog")) return;
      event.preventDefault();
      searchRef.current?.focus();
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, []);

  return (
    <div className="flex flex-col gap-2 border-b border-zinc-200 bg-white px-4 py-2 sm:gap-3 sm:px-6 sm:py-3">
      {/* min-w-0: a fieldset is as wide as its content by default, so long counts would widen the page.
          The tabs wrap rather than scroll: a tab cut off at the edge reads as missing. On a phone they sit closer,
          so the four fit one row at two-digit counts. */}
      <fieldset className="flex min-w-0 flex-wrap items-center gap-0.5 sm:gap-1">
        <legend className="sr-only">Type</legend>
        {[undefined, ...TYPES].map((type) => {
          // Under a search or another filter the tabs count nothing: the list's end says how many rows match.
          const n = narrowed ? null : tally(counts, filters.status, type);
          return (
            <button
              key={type ?? "all"}
              type="button"
              aria-pressed={filters.type === type}
              onClick={() => onChange({ type: type ?? null, item: null })}
              className={pill(filters.type === type)}
              title={
                n
                  ? `${n.groups} ${n.groups === 1 ? "row" : "rows"}, ${n.reports} ${n.reports === 1 ? "report" : "reports"} with their duplicates`
                  : undefined
              }
            >
              {type ? TYPE_LABELS[type] : "Everything"}
              {narrowed ? null : <span className="tabular-nums opacity-85">{n?.groups ?? "·"}</span>}
            </button>
          );
        })}
      </fieldset>
      <div className="flex flex-wrap items-center gap-2">
        <fieldset className="flex rounded-lg bg-zinc-100 p-0.5">
          <legend className="sr-only">Status</legend>
          {STATUSES.map(([value, label]) => (
            <button
              key={value}
              type="button"
              aria-pressed={filters.status === value}
              onClick={() => onChange({ status: value === "open" ? null : value, item: null })}
              className={`h-7 rounded-md px-2.5 text-sm font-medium ${
                filters.status === value
                  ? "bg-white text-zinc-900 shadow-sm"
                  : "text-zinc-600 hover:text-zinc-900"
              }`}
            >
              {label}
            </button>
          ))}
        </fieldset>
        <button
          type="button"
          aria-expanded={more}
          aria-controls={moreId}
          onClick={() => setMore((m) => !m)}
          className="h-8 shrink-0 rounded-lg border border-zinc-300 bg-white px-2.5 text-sm font-medium text-zinc-700 sm:hidden"
        >
          Filters{active ? ` · ${active}` : ""}
        </button>
        {/* On wider screens this box is not drawn ("contents"): its controls sit in the row beside the search. */}
        <div
          id={moreId}
          className={`${more ? "flex" : "hidden"} order-last w-full flex-wrap items-center gap-2 sm:contents`}
        >
          <label htmlFor={severityId} className="sr-only">
            Severity
          </label>
          <select
            id={severityId}
            value={filters.severity ?? ""}
            onChange={(e) => onChange({ severity: e.target.value || null, item: null })}
            className="h-8 rounded-lg border border-zinc-300 bg-white px-2 text-sm"
          >
            <option value="">Any severity</option>
            {SEVERITIES.map((s) => (
              <option key={s} value={s}>
                {s[0]?.toUpperCase()}
                {s.slice(1)}
              </option>
            ))}
          </select>
          <label htmlFor={stageId} className="sr-only">
            Triage status
          </label>
          <select
            id={stageId}
            value={filters.stage ?? ""}
            onChange={(e) => onChange({ stage: e.target.value || null, item: null })}
            className="h-8 rounded-lg border border-zinc-300 bg-white px-2 text-sm"
          >
            <option value="">Any status</option>
            {FEEDBACK_STATUSES.map((s) => (
              <option key={s} value={s}>
                {STATUS_LABELS[s]}
              </option>
            ))}
          </select>
          <label htmlFor={answerId} className="sr-only">
            Submitter's answer
          </label>
          <select
            id={answerId}
            value={filters.answer ?? ""}
            // A confirmed fix is on a resolved item, a disputed one on an open item: the view follows.
            onChange={(e) => {
              const answer = e.target.value || null;
              const view = answer === "confirmed" ? "resolved" : answer === "disputed" ? null : undefined;
              onChange({ answer, ...(view === undefined ? {} : { status: view }), item: null });
            }}
            className="h-8 rounded-lg border border-zinc-300 bg-white px-2 text-sm"
          >
            <option value="">Any answer</option>
            <option value="confirmed">Fix confirmed</option>
            <option value="disputed">Disputed</option>
          </select>
          <label htmlFor={sortId} className="sr-only">
            Order
          </label>
          <select
            id={sortId}
            value={filters.sort ?? ""}
            onChange={(e) => onChange({ sort: e.target.value || null, item: null })}
            className="h-8 rounded-lg border border-zinc-300 bg-white px-2 text-sm"
          >
            <option value="">Newest first</option>
            <option value="reports">Most reports</option>
          </select>
          <LabelPicker
            value={filters.label}
            labels={counts?.labels}
            onChange={(label) => onChange({ label, item: null })}
          />
        </div>
        {/* On a phone the search has a row of its own, first; on wider screens it ends the row. */}
        <div className="relative order-first w-full min-w-0 sm:order-last sm:w-auto sm:min-w-48 sm:flex-1">
          <SearchIcon className="pointer-events-none absolute top-1/2 left-2.5 size-4 -translate-y-1/2 text-zinc-400" />
          <input
            ref={searchRef}
            type="search"
            value={text}
            onChange={(e) => searchAsTyped(e.target.value)}
            aria-label="Search the inbox"
            placeholder="Search: words, “phrases”, -excluded"
            maxLength={200}
            className="h-8 w-full rounded-lg border border-zinc-300 bg-white pr-8 pl-8 text-sm focus:border-indigo-500 focus:outline-none focus:ring-2 focus:ring-indigo-500/30"
          />
          <kbd className="pointer-events-none absolute top-1/2 right-2 hidden -translate-y-1/2 rounded border border-zinc-200 px-1 font-sans text-[10px] text-zinc-500 sm:block">
            /
          </kbd>
        </div>
      </div>
    </div>
  );
}
