/** Rows picked for a bulk action, and the row a shift-click ranges from (the last one toggled). */
export type Selection = { picked: ReadonlySet<string>; anchor: string | null };

export const NO_SELECTION: Selection = { picked: new Set(), anchor: null };

/**
 * A click on row `id`: toggles it, or with `range` sets every row between the anchor and it (inclusive)
 * to the clicked row's new state, as mail and issue trackers do. With no anchor, or an anchor no longer
 * in `order` (its row left the view), a range click toggles the one row. The clicked row becomes the anchor.
 */
export function pickRow(state: Selection, order: readonly string[], id: string, range: boolean): Selection {
  const next = new Set(state.picked);
  const from = state.anchor === null ? -1 : order.indexOf(state.anchor);
  const to = order.indexOf(id);
  const on = !state.picked.has(id);
  if (range && from >= 0 && to >= 0) {
    for (const rowId of order.slice(Math.min(from, to), Math.max(from, to) + 1)) {
      if (on) next.add(rowId);
      else next.delete(rowId);
    }
  } else if (on) next.add(id);
  else next.delete(id);
  return { picked: next, anchor: id };
}
