import { useEffect } from "react";
import type { InboxItem } from "@/lib/api-client/types";

/**
 * j / k move to the next / previous item and Escape closes it, as in mail and issue tools; focus
 * follows, so screen readers announce the row. x picks the open item for a bulk action (shift+x: every
 * item from the last one picked). Ignored while typing or inside a dialog.
 */
export function useListKeys(
  items: InboxItem[],
  selectedId: string | null,
  select: (id: string | null) => void,
  pick?: (id: string, range: boolean) => void,
) {
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const target = event.target as HTMLElement;
      if (event.metaKey || event.ctrlKey || event.altKey) return;
      if (target.closest("input, textarea, select, dialog, [contenteditable]")) return;
      if (event.key === "Escape" && selectedId) {
        select(null);
        return;
      }
      if ((event.key === "x" || event.key === "X") && selectedId && pick) {
        event.preventDefault();
        pick(selectedId, event.shiftKey);
        return;
      }
      if (event.key !== "j" && event.key !== "k") return;
      if (items.length === 0) return;
      const at = items.findIndex((i) => i.id === selectedId);
      const next = event.key === "j" ? Math.min(at + 1, items.length - 1) : Math.max(at - 1, 0);
      const id = items[next]?.id;
      if (!id || id === selectedId) return;
      event.preventDefault();
      select(id);
      requestAnimationFrame(() => {
        const row = document.querySelector<HTMLElement>(`[data-item-id="${CSS.escape(id)}"]`);
        row?.focus({ preventScroll: true });
        row?.scrollIntoView({ block: "nearest" });
      });
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [items, selectedId, select, pick]);
}
