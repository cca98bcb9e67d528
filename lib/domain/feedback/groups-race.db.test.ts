import { eq, inArray, or } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { openDb } from "@/lib/db/client";
import { feedback, feedbackEvents } from "@/lib/db/schema";
import { insertItem, ref } from "@/testing/db-rows";
import { groupReport } from "./groups";

// Not in a rolled-back transaction: the reports are grouped at once, each on a connection of its own (a
// pool, with DATABASE_URL), as the answers of many paid submissions start grouping together.
const handle = openDb({ url: process.env.DATABASE_URL });
const namespace = ref("race");
afterAll(async () => {
  const { db, close } = await handle;
  await db.delete(feedbackEvents).where(eq(feedbackEvents.namespace, namespace));
  await db.delete(feedback).where(eq(feedback.namespace, namespace));
  await close();
});

describe("grouping many alike reports at once", () => {
  it("files each under the one head once, and the head counts every one of them", async () => {
    const { db } = await handle;
    const at = Date.parse("2026-11-01T00:00:00Z");
    const head = await insertItem(db, {
      namespace,
      title: "Checkout button does nothing",
      createdAt: new Date(at),
      groupedAt: new Date(at),
    });
    const reports = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        insertItem(db, {
          namespace,
          // The same words as the head: the head, oldest of all, is every report's best match.
          title: "Checkout button does nothing",
          createdAt: new Date(at + 1000 + i),
          groupedAt: null,
        }),
      ),
    );
    // Each report twice, as a live grouping and the recovery sweep may meet.
    const answers = await Promise.all([...reports, ...reports].map((id) => groupReport(id, db)));
    expect(answers.filter((a) => a === head)).toHaveLength(reports.length);
    expect(answers.filter((a) => a === null)).toHaveLength(reports.length);

    const rows = await db
      .select({ id: feedback.id, groupId: feedback.groupId, reportCount: feedback.reportCount })
      .from(feedback)
      .where(or(eq(feedback.id, head), inArray(feedback.id, reports)));
    expect(rows.find((r) => r.id === head)).toMatchObject({ groupId: null, reportCount: reports.length + 1 });
    expect(rows.filter((r) => r.groupId === head)).toHaveLength(reports.length);
    const merged = await db
      .select({ feedbackId: feedbackEvents.feedbackId })
      .from(feedbackEvents)
      .where(eq(feedbackEvents.namespace, namespace));
    expect(merged.map((e) => e.feedbackId).sort()).toEqual([...reports].sort());
    // Every report was looked at, once for good.
    const looked = await db
      .select({ groupedAt: feedback.groupedAt })
      .from(feedback)
      .where(inArray(feedback.id, reports));
    expect(looked.every((r) => r.groupedAt !== null)).toBe(true);
  });

  it("gathers a burst of alike reports with no group yet into one group, in whatever order they are looked at", async () => {
    const { db } = await handle;
    const burst = ref("burst");
    const at = Date.parse("2026-11-02T00:00:00Z");
    // An outage: many agents report it within a second, each in its own words' order, none looked at yet.
    const reports: string[] = [];
    for (let i = 0; i < 16; i++) {
      reports.push(
        await insertItem(db, {
          namespace: burst,
          title: [
            "Checkout button does nothing after payment",
            "the checkout button does nothing after payment",
          ][i % 2]!,
          createdAt: new Date(at + i),
          groupedAt: null,
        }),
      );
    }
    // The newest first, all at once: each meets older reports whose own grouping is still running (or
    // has not started), and heads that another grouping is filing under an older one at that moment.
    await Promise.all([...reports].reverse().map((id) => groupReport(id, db)));

    const rows = await db
      .select({ id: feedback.id, groupId: feedback.groupId, reportCount: feedback.reportCount })
      .from(feedback)
      .where(eq(feedback.namespace, burst));
    const heads = rows.filter((r) => r.groupId === null);
    expect(heads.map((h) => h.id)).toEqual([reports[0]]);
    expect(heads[0]!.reportCount).toBe(reports.length);
    await db.delete(feedbackEvents).where(eq(feedbackEvents.namespace, burst));
    await db.delete(feedback).where(eq(feedback.namespace, burst));
  });

  it("past its budget, files a report under the best alike one even if that one is not looked at yet", async () => {
    const { db } = await handle;
    const spent = ref("spent");
    const at = Date.parse("2026-11-03T00:00:00Z");
    const [older, newer] = [0, 1].map((i) => ({
      namespace: spent,
      title: "Export to CSV drops the last row",
      createdAt: new Date(at + i),
      groupedAt: null,
    }));
    const first = await insertItem(db, older!);
    const second = await insertItem(db, newer!);
    // One statement left: no settling the older report first, so the last try takes it as it is.
    expect(await groupReport(second, db, 1)).toBe(first);
    // The older report, looked at later, finds nothing older and stays the head of its group.
    expect(await groupReport(first, db)).toBeNull();
    const rows = await db
      .select({
        id: feedback.id,
        groupId: feedback.groupId,
        reportCount: feedback.reportCount,
        groupedAt: feedback.groupedAt,
      })
      .from(feedback)
      .where(eq(feedback.namespace, spent));
    expect(rows.find((r) => r.id === first)).toMatchObject({ groupId: null, reportCount: 2 });
    expect(rows.find((r) => r.id === second)).toMatchObject({ groupId: first });
    expect(rows.every((r) => r.groupedAt !== null)).toBe(true);
    await db.delete(feedbackEvents).where(eq(feedbackEvents.namespace, spent));
    await db.delete(feedback).where(eq(feedback.namespace, spent));
  });
});
