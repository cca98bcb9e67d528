import { useCallback, useRef, useState } from "react";

/**
 * Rows picked for a bulk action: a click toggles one row, a shift-click selects every row between it
 * and the last one toggled, as in mail and issue trackers.
 */
export function useSelection(order: readonly string[]) {
  const [picked, setPicked] = useState<ReadonlySet<string>>(new Set());
  const anchor = useRef<string | null>(null);

  const toggle = useCallback(
    (id: string, range: boolean) => {
      setPicked((current) => {
        const next = new Set(current);
        const from = anchor.current ? order.indexOf(anchor.current) : -1;
        const to = order.indexOf(id);
        if (range && from >= 0 && to >= 0) {
          const on = !current.has(id);
          for (const rowId of order.slice(Math.min(from, to), Math.max(from, to) + 1)) {
            if (on) next.add(rowId);
            else next.delete(rowId);
          }
        } else if (next.has(id)) next.delete(id);
        else next.add(id);
        return next;
      });
      anchor.current = id;
    },
    [order],
  );
  const clear = useCallback(() => {
    setPicked(new Set());
    anchor.current = null;
  }, []);
  return { picked, toggle, clear };
}
