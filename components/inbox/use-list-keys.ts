import { useEffect, useRef } from "react";
import type { InboxItem } from "@/lib/api-client/types";

/**
 * j / k move to the next / previous item and Escape closes it, as in mail and issue tools; focus
 * follows, so screen readers announce the row. x picks the open item for a bulk action (shift+x: every
 * item from the last one picked). Ignored while typing or inside a dialog.
 *
 * Every press counts: the selection reaches the URL a render or two after a press, so quick presses move
 * on from the last press, not from the URL. With nothing open (after Escape), j and k move on from the
 * focused row, or from the item just closed.
 */
export function useListKeys(
  items: InboxItem[],
  selectedId: string | null,
  select: (id: string | null) => void,
  pick?: (id: string, range: boolean) => void,
) {
  // Where the presses have got to, and the items they chose that the URL has not shown yet.
  const cursor = useRef<string | null>(selectedId);
  const pending = useRef<string[]>([]);
  const closed = useRef<string | null>(null);
  useEffect(() => {
    const caughtUp = selectedId === null ? -1 : pending.current.indexOf(selectedId);
    if (caughtUp >= 0) {
      pending.current = pending.current.slice(caughtUp + 1);
      return;
    }
    // A change that no press made (a click, Escape, the browser's back): the presses start from it.
    pending.current = [];
    cursor.current = selectedId;
  }, [selectedId]);

  useEffect(() => {
    const focusedRow = () =>
      (document.activeElement as HTMLElement | null)?.closest<HTMLElement>("[data-item-id]")?.dataset
        .itemId ?? null;
    const onKey = (event: KeyboardEvent) => {
      const target = event.target as HTMLElement;
      if (event.metaKey || event.ctrlKey || event.altKey) return;
      if (target.closest("input, textarea, select, dialog, [contenteditable]")) return;
      const current = cursor.current;
      if (event.key === "Escape" && current) {
        closed.current = current;
        cursor.current = null;
        pending.current = [];
        select(null);
        return;
      }
      if ((event.key === "x" || event.key === "X") && current && pick) {
        event.preventDefault();
        pick(current, event.shiftKey);
        return;
      }
      if (event.key !== "j" && event.key !== "k") return;
      if (items.length === 0) return;
      const from = current ?? focusedRow() ?? closed.current;
      const at = items.findIndex((i) => i.id === from);
      // Nothing to move on from: j and k open the first item.
      const next = at < 0 ? 0 : event.key === "j" ? Math.min(at + 1, items.length - 1) : Math.max(at - 1, 0);
      const id = items[next]?.id;
      if (!id || id === current) return;
      event.preventDefault();
      cursor.current = id;
      pending.current.push(id);
      select(id);
      requestAnimationFrame(() => {
        const row = document.querySelector<HTMLElement>(`[data-item-id="${CSS.escape(id)}"]`);
        row?.focus({ preventScroll: true });
        row?.scrollIntoView({ block: "nearest" });
      });
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [items, select, pick]);
}
