import { eq } from "drizzle-orm";
import type { DbOrTx } from "@/lib/db/client";
import { feedback } from "@/lib/db/schema";
import { groupReport } from "@/lib/domain/feedback/groups";
import { targetsOf } from "@/lib/domain/feedback/targets";
import type { LabelledPair, PairReport } from "./alike-pairs";
import { insertItem, ref } from "./db-rows";

/**
 * Files each pair's reports into a namespace of their own, `a` first (with its group's members, merged by
 * the owner, when the pair has some), runs the service's grouping on `b` and counts what it suggested
 * against the labels: the precision and recall of automatic joins.
 */
export async function measureAlike(db: DbOrTx, pairs: readonly LabelledPair[]) {
  const at = Date.now() - pairs.length * 2_000;
  const file = (namespace: string, r: PairReport, ms: number, looked: boolean, group = {}) =>
    insertItem(db, {
      namespace,
      type: r.type,
      title: r.title,
      description: r.description,
      metadata: r.metadata ?? null,
      targets: targetsOf(namespace, r.metadata ?? null),
      createdAt: new Date(ms),
      groupedAt: looked ? new Date(ms) : null,
      ...group,
    });
  const wrong: string[] = [];
  /** Whether each pair's second report was suggested into the first's group, in the pairs' order. */
  const joinedEach: boolean[] = [];
  for (const [n, pair] of pairs.entries()) {
    const namespace = ref("alike");
    const members = pair.members ?? [];
    const a = await file(namespace, pair.a, at + n * 2_000, true, { reportCount: 1 + members.length });
    for (const [i, m] of members.entries())
      await file(namespace, m, at + n * 2_000 + 1 + i, true, { groupId: a, groupKind: "merged" });
    const b = await file(namespace, pair.b, at + n * 2_000 + 1_000, false);
    const joined = (await groupReport(b, db)) === a;
    joinedEach.push(joined);
    if (joined !== pair.same)
      wrong.push(`${pair.same ? "missed" : "joined"}: ${pair.a.title} / ${pair.b.title}`);
    // Its namespace is its own; nothing else needs it.
    await db.delete(feedback).where(eq(feedback.namespace, namespace));
  }
  return { ...scored(pairs, joinedEach), wrong, joinedEach };
}

/** Precision and recall of the suggestions `joined` (one per pair, in order) against the pairs' labels. */
export function scored(pairs: readonly LabelledPair[], joined: readonly boolean[]) {
  let [tp, fp, fn, tn] = [0, 0, 0, 0];
  for (const [n, pair] of pairs.entries()) {
    if (joined[n] && pair.same) tp++;
    else if (joined[n]) fp++;
    else if (pair.same) fn++;
    else tn++;
  }
  const suggested = tp + fp;
  return {
    pairs: pairs.length,
    truePositives: tp,
    falsePositives: fp,
    falseNegatives: fn,
    trueNegatives: tn,
    suggested,
    precision: suggested === 0 ? 1 : tp / suggested,
    recall: tp + fn === 0 ? 1 : tp / (tp + fn),
  };
}
