/** A report a merge moved, and the head of the group it was in (null: it headed its own). */
export type Moved = { id: string; from: string | null };

/**
 * How a merge is undone, from its answer's `moved`: every moved report is taken out of the merged group, then
 * those that were in another group are filed back under that group's head. Both steps are safe to repeat, so
 * an undo cut off halfway is finished by running it again.
 */
export function undoSteps(moved: readonly Moved[]): {
  unmerge: string[];
  merge: { into: string; ids: string[] }[];
} {
  const back = new Map<string, string[]>();
  for (const { id, from } of moved) if (from) back.set(from, [...(back.get(from) ?? []), id]);
  return {
    unmerge: moved.map((m) => m.id),
    merge: [...back].map(([into, ids]) => ({ into, ids })),
  };
}
