import { useCallback, useState } from "react";
import { NO_SELECTION, pickRow } from "./selection";

/**
 * Rows picked for a bulk action: a click toggles one row, a shift-click selects every row between it
 * and the last one toggled. The anchor lives in the same state as the picks, so each update reads the
 * anchor of the state it updates: a ref read inside a deferred updater would already hold the new click.
 */
export function useSelection(order: readonly string[]) {
  const [selection, setSelection] = useState(NO_SELECTION);
  const toggle = useCallback(
    (id: string, range: boolean) => setSelection((current) => pickRow(current, order, id, range)),
    [order],
  );
  const clear = useCallback(() => setSelection(NO_SELECTION), []);
  return { picked: selection.picked, toggle, clear };
}
