import { eq } from "drizzle-orm";
import { describe, expect } from "vitest";
import type { DbOrTx } from "@/lib/db/client";
import { feedback, webhookDeliveries } from "@/lib/db/schema";
import { exportQuerySchema, listQuerySchema, statusQuerySchema } from "@/lib/schemas/list";
import { resolveFeedbackSchema } from "@/lib/schemas/resolve";
import { changeStatusSchema, mergeSchema, unmergeSchema } from "@/lib/schemas/triage";
import { insertItem, insertNamespace, ref } from "@/testing/db-rows";
import { rolledBack } from "@/testing/rollback";
import { changeStatus } from "./change-status";
import { countFeedback } from "./count-feedback";
import { exportFeedback } from "./export-feedback";
import { getFeedback } from "./get-feedback";
import { groupReport, mergeReports, unmergeReports } from "./groups";
import { listFeedback } from "./list-feedback";
import { listSubmissions } from "./list-submissions";
import { resolveFeedback } from "./resolve-feedback";

// Automatic grouping only suggests: it never changes another report's state, and a submitter never
// sees another reporter's report through its own.
const owner = "0x00000000000000000000000000000000000000b1";
const alice = "0x00000000000000000000000000000000000000b2";
const bob = "0x00000000000000000000000000000000000000b3";
const ns = ref("grp");

let clock = Date.parse("2026-11-02T00:00:00Z");
function file(db: DbOrTx, item: Partial<typeof feedback.$inferInsert> = {}) {
  clock += 1000;
  return insertItem(db, { namespace: ns, submitterWallet: alice, createdAt: new Date(clock), ...item });
}

/** Two reports the service finds alike: the second is suggested into the first's group. */
async function suggestedPair(db: DbOrTx) {
  await insertNamespace(db, { name: ns, ownerWallet: owner });
  const text = {
    title: "Checkout button does nothing on the cart page",
    description: "Clicking Checkout on /cart does nothing: no request is sent and no error is shown.",
  };
  const head = await file(db, { ...text, groupedAt: null });
  const suggested = await file(db, { ...text, submitterWallet: bob, groupedAt: null });
  expect(await groupReport(head, db)).toBeNull();
  expect(await groupReport(suggested, db)).toBe(head);
  return { head, suggested };
}

const list = (query: Record<string, unknown>, db: DbOrTx) =>
  listFeedback(owner, listQuerySchema.parse({ namespace: ns, ...query }), db);

describe("a suggested duplicate", () => {
  rolledBack("is never changed by an action on another report of its group", async (db) => {
    const { head, suggested } = await suggestedPair(db);
    await changeStatus(
      owner,
      changeStatusSchema.parse({ namespace: ns, feedbackIds: [head], status: "in_progress" }),
      db,
    );
    await resolveFeedback(owner, resolveFeedbackSchema.parse({ feedbackId: head, message: "Fixed" }), db);
    await changeStatus(
      owner,
      changeStatusSchema.parse({ namespace: ns, feedbackIds: [head], status: "resolved" }),
      db,
    );
    const theirs = await getFeedback(bob, suggested, db);
    expect(theirs).toMatchObject({
      status: "open",
      resolved: false,
      resolveMessage: null,
      rewardAmount: null,
    });
    expect(theirs.history).toEqual([]);
    // Only the named report's events were queued.
    const queued = await db
      .select({ payload: webhookDeliveries.payload })
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.namespace, ns));
    expect(queued.every((d) => JSON.stringify(d.payload).includes(head))).toBe(true);
  });

  rolledBack("changes when the owner names it, or merges it and names it", async (db) => {
    const { head, suggested } = await suggestedPair(db);
    await mergeReports(owner, mergeSchema.parse({ namespace: ns, into: head, feedbackIds: [suggested] }), db);
    expect(await getFeedback(owner, suggested, db)).toMatchObject({ groupId: head, groupKind: "merged" });
    const answer = await resolveFeedback(
      owner,
      resolveFeedbackSchema.parse({ feedbackId: head, message: "Fixed", alsoResolve: [suggested] }),
      db,
    );
    expect(answer.alsoResolved).toEqual([suggested]);
    const theirs = await getFeedback(bob, suggested, db);
    expect(theirs).toMatchObject({ resolved: true, resolveMessage: "Fixed" });
    // The submitter reads that it was resolved, not which other report it was resolved with.
    expect(theirs.history.map((h) => [h.kind, h.details])).toEqual([
      ["merged", null],
      ["status", null],
    ]);
  });

  rolledBack(
    "refuses an alsoResolve naming an unknown item, the item itself, or another namespace's",
    async (db) => {
      const { head, suggested } = await suggestedPair(db);
      const elsewhere = await insertItem(db, { namespace: ref("other"), submitterWallet: alice });
      const resolve = (alsoResolve: string[]) =>
        resolveFeedback(owner, resolveFeedbackSchema.parse({ feedbackId: head, alsoResolve }), db);
      await expect(resolve([suggested, "fb_nope"])).rejects.toMatchObject({
        code: "feedback-not-found",
        extra: { errors: [{ field: "alsoResolve.1" }] },
      });
      await expect(resolve([elsewhere])).rejects.toMatchObject({
        extra: { errors: [{ field: "alsoResolve.0" }] },
      });
      await expect(resolve([head])).rejects.toMatchObject({
        code: "validation-failed",
        extra: { errors: [{ field: "alsoResolve.0" }] },
      });
      // Nothing changed.
      expect((await getFeedback(owner, head, db)).resolved).toBe(false);
    },
  );
});

describe("what each role reads of a group", () => {
  rolledBack("the owner sees the group, each submitter only its own report", async (db) => {
    const { head, suggested } = await suggestedPair(db);
    const owners = await getFeedback(owner, suggested, db);
    expect(owners.group?.map((g) => [g.id, g.submitterWallet])).toEqual([[head, alice]]);
    const bobs = await getFeedback(bob, suggested, db);
    expect(bobs).not.toHaveProperty("group");
    expect(bobs).not.toHaveProperty("groupId");
    expect(bobs).not.toHaveProperty("reportCount");
    expect(JSON.stringify(bobs)).not.toContain(head);
    const status = await listSubmissions(bob, statusQuerySchema.parse({ namespace: ns }), db);
    expect(JSON.stringify(status)).not.toContain(head);
    expect(status.feedback[0]).not.toHaveProperty("groupId");
    await expect(getFeedback(bob, head, db)).rejects.toMatchObject({ code: "forbidden" });
  });
});

describe("the grouped view", () => {
  rolledBack("finds a report inside a group by search and filters, once per group", async (db) => {
    await insertNamespace(db, { name: ns, ownerWallet: owner });
    const head = await file(db, {
      title: "Crash when uploading a PDF",
      description: "The upload page crashes.",
    });
    const png = await file(db, {
      title: "Crash when uploading a PNG image",
      description: "The page crashes.",
    });
    const png2 = await file(db, { title: "Crash again with a PNG", description: "Same crash with a png." });
    const alone = await file(db, { title: "Dark mode", type: "feature", description: "Please add it." });
    await mergeReports(owner, mergeSchema.parse({ namespace: ns, into: head, feedbackIds: [png, png2] }), db);
    const ids = async (query: Record<string, unknown>) =>
      (await list({ grouped: "true", ...query }, db)).feedback.map((f) => f.id);
    expect(await ids({})).toEqual([alone, head]);
    // The head does not match: the group shows as its newest matching report.
    expect(await ids({ q: "png" })).toEqual([png2]);
    expect(await ids({ q: "crash" })).toEqual([head]);
    const [row] = (await list({ grouped: "true", q: "png" }, db)).feedback;
    expect(row).toMatchObject({ groupId: head, groupReports: 3 });
    await resolveFeedback(owner, resolveFeedbackSchema.parse({ feedbackId: head }), db);
    expect(await ids({ resolved: "false" })).toEqual([alone, png2]);
    expect(await ids({ resolved: "true" })).toEqual([head]);
    // The same view ungrouped lists every matching report; its export holds exactly those, with their group.
    expect((await list({ q: "png" }, db)).feedback.map((f) => f.id)).toEqual([png2, png]);
    const csv = await new Response(
      (await exportFeedback(owner, exportQuerySchema.parse({ namespace: ns, q: "png" }), db)).body,
    ).text();
    const lines = csv.trim().split("\r\n");
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/,groupId,groupKind,reportCount$/);
    expect(lines[1]).toContain(`${head},merged,1`);
    // The counts say what the grouped view lists (groups), and the reports behind it.
    const counts = await countFeedback(owner, ns, db);
    expect(counts.groups.total).toEqual({ open: 2, resolved: 1 });
    expect(counts.total).toEqual({ open: 3, resolved: 1 });
    expect(counts.groups.byType.bug).toEqual({ open: 1, resolved: 1 });
    expect((await list({ grouped: "true", resolved: "false" }, db)).count).toBe(counts.groups.total.open);
  });
});

describe("a suggestion", () => {
  const crash = {
    title: "First transaction missing from CSV export when a date filter is set",
    description:
      "With a date filter applied on Transactions, Export CSV writes every row except the first one of the filtered list. Chrome 126 on macOS.",
  };
  const copy = {
    title: "First transaction missing from the CSV export when a date filter is set",
    description:
      "With a date filter set on Transactions, Export CSV writes every row except the first one of the filtered list. Chrome 126, macOS.",
  };

  rolledBack("stays a suggestion until the owner acts on it", async (db) => {
    await insertNamespace(db, { name: ns, ownerWallet: owner });
    const head = await file(db, {
      title: "CSV export drops the first row",
      description: "Row 1 is not exported.",
    });
    const member = await file(db, crash);
    await mergeReports(owner, mergeSchema.parse({ namespace: ns, into: head, feedbackIds: [member] }), db);
    const suggested = await file(db, { ...copy, submitterWallet: bob, groupedAt: null });
    expect(await groupReport(suggested, db)).toBe(head);
    expect(await getFeedback(owner, suggested, db)).toMatchObject({
      groupId: head,
      groupKind: "suggested",
      status: "open",
    });
    // Resolving the group's merged reports leaves it as it was: only a report the owner names changes.
    await resolveFeedback(
      owner,
      resolveFeedbackSchema.parse({ feedbackId: head, message: "Fixed", alsoResolve: [member] }),
      db,
    );
    expect(await getFeedback(bob, suggested, db)).toMatchObject({ status: "open", resolved: false });
    // "Not alike": out of the group, heading its own.
    await unmergeReports(owner, unmergeSchema.parse({ namespace: ns, feedbackIds: [suggested] }), db);
    expect(await getFeedback(owner, suggested, db)).toMatchObject({ groupId: null, groupKind: null });
  });

  rolledBack("never reaches into another namespace", async (db) => {
    await insertNamespace(db, { name: ns, ownerWallet: owner });
    const theirs = ref("stranger");
    await insertNamespace(db, { name: theirs, ownerWallet: bob });
    const head = await insertItem(db, { namespace: theirs, title: "CSV export drops the first row" });
    await insertItem(db, { namespace: theirs, ...crash, groupId: head, groupKind: "merged" });
    await db.update(feedback).set({ reportCount: 2 }).where(eq(feedback.id, head));
    const ours = await file(db, { ...copy, groupedAt: null });
    expect(await groupReport(ours, db)).toBeNull();
    const [stranger] = await db
      .select({ reportCount: feedback.reportCount })
      .from(feedback)
      .where(eq(feedback.id, head));
    expect(stranger?.reportCount).toBe(2);
  });
});
