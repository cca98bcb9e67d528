"use client";

import Link from "next/link";
import { useCallback, useEffect, useMemo, useState } from "react";
import { buttonClass } from "@/components/ui/button";
import { ArrowLeftIcon, InboxIcon } from "@/components/ui/icons";
import { EmptyState } from "@/components/ui/states";
import { useCounts, useInbox } from "@/lib/api-client/hooks/use-inbox";
import { useRole } from "@/lib/api-client/hooks/use-role";
import { useSession } from "@/lib/api-client/hooks/use-session";
import { exportHref } from "@/lib/api-client/inbox-filters";
import { BulkBar } from "./bulk-bar";
import { InboxFilterBar } from "./inbox-filters";
import { InboxList } from "./inbox-list";
import { ItemDetail } from "./item-detail";
import type { MergeDone } from "./merge-dialog";
import { MergeNotice } from "./merge-notice";
import { ShortcutsDialog } from "./shortcuts-dialog";
import { useInboxUrl } from "./use-inbox-url";
import { useListKeys } from "./use-list-keys";
import { useSelection } from "./use-selection";
import { isNarrowed } from "./view-counts";

/** A namespace's inbox: filters on top, the list on the left, the open item on the right (alone on a phone). */
export function Inbox({ namespace }: { namespace: string }) {
  const { session } = useSession();
  const owner = session?.address ?? "";
  const { filters, selectedId, hrefWith, update } = useInboxUrl();
  const query = useInbox(owner, namespace, filters);
  const counts = useCounts(owner, namespace);
  const items = useMemo(() => query.data?.pages.flatMap((p) => p.feedback) ?? [], [query.data]);
  const selected = items.find((i) => i.id === selectedId);
  const hrefFor = useCallback((id: string) => hrefWith({ item: id }), [hrefWith]);
  const open = selectedId !== null;

  const order = useMemo(() => items.map((i) => i.id), [items]);
  const selection = useSelection(order);
  useListKeys(items, selectedId, (id) => update({ item: id }), selection.toggle);
  const picked = items.filter((i) => selection.picked.has(i.id));
  // The bulk bar leaves with its buttons: focus, lost with them, goes to the first report it held (still
  // listed), or else the list's first row, never back to the page's start.
  const donePicking = () => {
    const first = picked[0]?.id;
    selection.clear();
    requestAnimationFrame(() => {
      const now = document.activeElement;
      if (now && now !== document.body) return;
      const row = (id: string) => document.querySelector<HTMLElement>(`[data-item-id="${CSS.escape(id)}"]`);
      ((first ? row(first) : null) ?? document.querySelector<HTMLElement>("[data-item-id]"))?.focus();
    });
  };
  // What the signed-in wallet's role lets it do here: a viewer gets no bulk actions, only admins the webhook.
  const can = useRole(namespace).may;
  const [help, setHelp] = useState(false);
  // The last merge from the bulk bar, offered for undoing until dismissed or another one replaces it.
  const [merged, setMerged] = useState<MergeDone | null>(null);
  useHelpKey(setHelp);

  // Open reports in the whole namespace, as its card counts them; the list folds duplicates into one row per
  // group, and says so when that makes fewer rows. In a narrower view (a type, resolved, a search, a filter)
  // the header says it counts the whole namespace; the tabs and the list's end count the view.
  const openRows = counts.data?.groups.total.open;
  const openReports = counts.data?.total.open;
  const wholeView = filters.status === "open" && !filters.type && !isNarrowed(filters);
  useEffect(() => {
    document.title = `${openReports ? `(${openReports}) ` : ""}${namespace} · Feedback`;
  }, [namespace, openReports]);

  return (
    <div className="flex flex-col lg:h-[calc(100dvh-3.5rem)]">
      <div className="flex flex-wrap items-center gap-x-2 gap-y-1 border-b border-zinc-200 bg-white px-4 pt-4 pb-2 sm:px-6">
        <Link
          href="/dashboard"
          className="rounded-md p-1 text-zinc-500 hover:bg-zinc-100 hover:text-zinc-900"
          aria-label="All namespaces"
        >
          <ArrowLeftIcon className="size-4" />
        </Link>
        <h1 className="font-mono text-lg font-semibold tracking-tight">{namespace}</h1>
        {openReports !== undefined ? (
          <span className="text-sm text-zinc-600">
            {openReports} open {openReports === 1 ? "report" : "reports"}
            {wholeView ? null : " in all"}
            {wholeView && openRows !== openReports ? (
              <span className="hidden sm:inline">
                {" "}
                · {openRows} {openRows === 1 ? "row" : "rows"} with duplicates grouped
              </span>
            ) : null}
          </span>
        ) : null}
        <span className="ml-auto flex flex-wrap items-center gap-1 text-sm">
          {/* Each link's name says what it does at every size; the words shown before them are for the eye. */}
          <span aria-hidden="true" data-export-label className="text-zinc-600">
            <span className="sm:hidden">Export:</span>
            <span className="hidden sm:inline">Export this view, every report:</span>
          </span>
          <a href={exportHref(namespace, filters, "csv")} className={buttonClass("ghost", "sm")} download>
            <span className="sr-only">Export this view as </span>CSV
          </a>
          <a href={exportHref(namespace, filters, "json")} className={buttonClass("ghost", "sm")} download>
            <span className="sr-only">Export this view as </span>JSON
          </a>
        </span>
        <Link
          href={`/dashboard/${encodeURIComponent(namespace)}/insights`}
          className={buttonClass("secondary", "sm")}
        >
          Insights
        </Link>
        {can("webhook") ? (
          <Link
            href={`/dashboard/${encodeURIComponent(namespace)}/webhooks`}
            className={buttonClass("secondary", "sm")}
          >
            Webhooks
          </Link>
        ) : null}
        <Link
          href={`/dashboard/${encodeURIComponent(namespace)}/known-issues`}
          className={buttonClass("secondary", "sm")}
        >
          Known issues
        </Link>
        <Link
          href={`/dashboard/${encodeURIComponent(namespace)}/members`}
          className={buttonClass("secondary", "sm")}
        >
          Members
        </Link>
      </div>
      <InboxFilterBar filters={filters} counts={counts.data} onChange={update} />
      <div className="flex min-h-0 flex-1">
        <div
          className={`min-h-0 w-full overflow-y-auto border-zinc-200 bg-white lg:block lg:w-[26rem] lg:shrink-0 lg:border-r xl:w-[30rem] ${
            open ? "hidden" : "block"
          }`}
        >
          {picked.length > 0 && can("triage") ? (
            <BulkBar
              owner={owner}
              namespace={namespace}
              picked={picked}
              onDone={donePicking}
              onMerged={setMerged}
            />
          ) : null}
          {merged ? (
            <MergeNotice
              owner={owner}
              namespace={namespace}
              done={merged}
              onDismiss={() => setMerged(null)}
            />
          ) : null}
          <InboxList
            owner={owner}
            namespace={namespace}
            onChange={update}
            hrefWith={hrefWith}
            picked={selection.picked}
            onPick={selection.toggle}
            query={query}
            items={items}
            filters={filters}
            counts={counts.data}
            selectedId={selectedId}
            hrefFor={hrefFor}
            onOpen={(id) => update({ item: id }, "push")}
          />
        </div>
        <div className={`min-h-0 flex-1 overflow-y-auto bg-white lg:block ${open ? "block" : "hidden"}`}>
          {selectedId ? (
            <ItemDetail
              key={selectedId}
              owner={owner}
              namespace={namespace}
              id={selectedId}
              fromList={selected}
              onBack={() => update({ item: null })}
            />
          ) : (
            <EmptyState icon={<InboxIcon />} title="Pick an item to read it">
              <span className="hidden lg:inline">
                Use <kbd className="rounded border border-zinc-200 px-1">j</kbd> and{" "}
                <kbd className="rounded border border-zinc-200 px-1">k</kbd> to move,{" "}
                <kbd className="rounded border border-zinc-200 px-1">x</kbd> to select,{" "}
                <kbd className="rounded border border-zinc-200 px-1">/</kbd> to search,{" "}
                <kbd className="rounded border border-zinc-200 px-1">?</kbd> for every shortcut.
              </span>
            </EmptyState>
          )}
        </div>
      </div>
      <ShortcutsDialog open={help} onClose={() => setHelp(false)} />
    </div>
  );
}

/** "?" opens the list of shortcuts, unless the person is typing. */
function useHelpKey(open: (open: boolean) => void) {
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const target = event.target as HTMLElement;
      if (event.key !== "?" || event.metaKey || event.ctrlKey || event.altKey) return;
      if (target.closest("input, textarea, select, dialog, [contenteditable]")) return;
      event.preventDefault();
      open(true);
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [open]);
}
