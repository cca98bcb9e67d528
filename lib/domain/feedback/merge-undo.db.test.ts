import { eq } from "drizzle-orm";
import { describe, expect } from "vitest";
import { undoSteps } from "@/lib/api-client/merge-undo";
import type { DbOrTx } from "@/lib/db/client";
import { feedback } from "@/lib/db/schema";
import { mergeSchema, unmergeSchema } from "@/lib/schemas/triage";
import { insertItem, insertNamespace, ref } from "@/testing/db-rows";
import { rolledBack } from "@/testing/rollback";
import { mergeReports, unmergeReports } from "./groups";

// The dashboard's "Merge as duplicates" can be undone in one step: the merge's answer says where every report
// it moved was, and the undo puts each back.
const owner = "0x00000000000000000000000000000000000000c1";
const ns = ref("mun");

/** Each report of the namespace: its group's head (null: it heads its own), and its head's report count. */
async function groupsNow(db: DbOrTx) {
  const rows = await db
    .select({ id: feedback.id, groupId: feedback.groupId, reportCount: feedback.reportCount })
    .from(feedback)
    .where(eq(feedback.namespace, ns));
  return Object.fromEntries(rows.map((r) => [r.id, [r.groupId, r.reportCount]]));
}

describe("a merge of several rows, undone", () => {
  rolledBack("says what it moved from where, and the undo puts back every group as it was", async (db) => {
    await insertNamespace(db, { name: ns, ownerWallet: owner });
    const item = (values: Parameters<typeof insertItem>[1] extends infer V ? Partial<V> : never = {}) =>
      insertItem(db, { namespace: ns, ...values });
    // Three rows: a lone report, a group of three (one merged, one suggested), and another lone report;
    // and a group not named at all, one of whose members is picked alone.
    const lead = await item();
    const head = await item({ reportCount: 3 });
    const merged = await item({ groupId: head, groupKind: "merged" });
    const suggested = await item({ groupId: head, groupKind: "suggested" });
    const lone = await item();
    const otherHead = await item({ reportCount: 2 });
    const otherMember = await item({ groupId: otherHead, groupKind: "merged" });
    const before = await groupsNow(db);

    const answer = await mergeReports(
      owner,
      mergeSchema.parse({ namespace: ns, into: lead, feedbackIds: [head, lone, otherMember] }),
      db,
    );
    expect(answer.reportCount).toBe(6);
    expect(new Map(answer.moved.map((m) => [m.id, m.from]))).toEqual(
      new Map([
        [head, null],
        [lone, null],
        [otherMember, otherHead],
        [merged, head],
        [suggested, head],
      ]),
    );
    expect((await groupsNow(db))[otherHead]).toEqual([null, 1]);

    const steps = undoSteps(answer.moved);
    const undo = async () => {
      await unmergeReports(owner, unmergeSchema.parse({ namespace: ns, feedbackIds: steps.unmerge }), db);
      for (const { into, ids } of steps.merge) {
        await mergeReports(owner, mergeSchema.parse({ namespace: ns, into, feedbackIds: ids }), db);
      }
    };
    await undo();
    expect(await groupsNow(db)).toEqual(before);
    // Run again (an undo cut off halfway is finished by running it again): nothing more changes.
    await undo();
    expect(await groupsNow(db)).toEqual(before);
  });

  rolledBack("moves nothing it names that is already in the lead's group", async (db) => {
    await insertNamespace(db, { name: ns, ownerWallet: owner });
    const lead = await insertItem(db, { namespace: ns, reportCount: 2 });
    const member = await insertItem(db, { namespace: ns, groupId: lead, groupKind: "merged" });
    const answer = await mergeReports(
      owner,
      mergeSchema.parse({ namespace: ns, into: lead, feedbackIds: [member] }),
      db,
    );
    expect(answer.moved).toEqual([]);
    expect(undoSteps(answer.moved)).toEqual({ unmerge: [], merge: [] });
  });
});
