import { describe, expect, it } from "vitest";
import type { DbOrTx } from "@/lib/db/client";
import { type feedback, feedbackEvents, payouts } from "@/lib/db/schema";
import type { AppError } from "@/lib/http/errors";
import { parseInput } from "@/lib/http/validate";
import { type Insights, insightsQuerySchema, insightsResponseSchema } from "@/lib/schemas/insights";
import { insertItem, insertNamespace, ref } from "@/testing/db-rows";
import { rolledBack } from "@/testing/rollback";
import { getInsights } from "./get-insights";

// The owner's figures on a real database, each scene in a transaction that always rolls back. Dates are
// fixed and every query names its period, so nothing depends on today.
const owner = "0x00000000000000000000000000000000000000A1";
const stranger = "0x00000000000000000000000000000000000000a3";
const wallet = (n: number) => `0x${n.toString(16).padStart(40, "0")}`;
const acme = ref("acme");
const HOUR = 3_600_000;
const at = (iso: string, hours = 0) => new Date(Date.parse(iso) + hours * HOUR);

const register = (db: DbOrTx, name = acme) => insertNamespace(db, { name, ownerWallet: owner });

// A resolvedAt alone makes a resolved item, so a scene names only when it was resolved.
const file = (db: DbOrTx, createdAt: Date, item: Partial<typeof feedback.$inferInsert> = {}) =>
  insertItem(db, {
    namespace: acme,
    submitterWallet: wallet(1),
    createdAt,
    ...(item.resolvedAt ? { status: "resolved" as const, resolved: true } : {}),
    ...item,
  });

async function event(db: DbOrTx, feedbackId: string, createdAt: Date, actor = owner, kind = "status") {
  await db.insert(feedbackEvents).values({
    id: ref("ev"),
    feedbackId,
    namespace: acme,
    kind: kind as "status",
    actor,
    createdAt,
  });
}

/** The verb's answer, checked against the published response schema on the way. */
async function insights(db: DbOrTx, query: Record<string, string>, who = owner): Promise<Insights> {
  const answer = await getInsights(who, insightsQuerySchema.parse({ namespace: acme, ...query }), db);
  return insightsResponseSchema.parse(JSON.parse(JSON.stringify(answer)));
}

describe("insights over time", () => {
  rolledBack("counts the items filed per day and per week by type, empty buckets included", async (db) => {
    await register(db);
    await file(db, at("2026-11-02T08:00:00Z"));
    await file(db, at("2026-11-02T23:59:59Z"));
    await file(db, at("2026-11-02T12:00:00Z"), { type: "feature" });
    await file(db, at("2026-11-04T00:00:00Z"), { type: "feedback" });
    await file(db, at("2026-11-09T10:00:00Z"));
    await file(db, at("2026-11-01T23:59:59Z")); // the day before the period
    await file(db, at("2026-11-02T08:00:00Z"), { namespace: ref("other") });

    const days = await insights(db, { from: "2026-11-02", to: "2026-11-05" });
    expect(days).toMatchObject({ from: "2026-11-02", to: "2026-11-05", bucket: "day" });
    expect(days.buckets).toEqual([
      { start: "2026-11-02", bug: 2, feature: 1, feedback: 0, created: 3, resolved: 0 },
      { start: "2026-11-03", bug: 0, feature: 0, feedback: 0, created: 0, resolved: 0 },
      { start: "2026-11-04", bug: 0, feature: 0, feedback: 1, created: 1, resolved: 0 },
      { start: "2026-11-05", bug: 0, feature: 0, feedback: 0, created: 0, resolved: 0 },
    ]);

    // Weeks start on Monday; a period that starts midweek keeps its week's Monday as the first start.
    const weeks = await insights(db, { from: "2026-11-03", to: "2026-11-12", bucket: "week" });
    expect(weeks.buckets.map((b) => [b.start, b.bug, b.feature, b.feedback])).toEqual([
      ["2026-11-02", 0, 0, 1],
      ["2026-11-09", 1, 0, 0],
    ]);
  });

  rolledBack("shows the current totals by status, and the resolutions of each bucket", async (db) => {
    await register(db);
    await file(db, at("2026-11-02T08:00:00Z"));
    await file(db, at("2026-11-02T09:00:00Z"), { status: "needs_info" });
    await file(db, at("2026-11-02T10:00:00Z"), { status: "wont_fix" });
    await file(db, at("2026-11-02T11:00:00Z"), { resolvedAt: at("2026-11-03T11:00:00Z") });
    await file(db, at("2026-11-02T12:00:00Z"), { resolvedAt: at("2026-11-03T23:00:00Z") });
    await file(db, at("2026-10-01T12:00:00Z"), { resolvedAt: at("2026-11-04T01:00:00Z") });
    await file(db, at("2026-10-01T12:00:00Z"), { resolvedAt: at("2026-10-02T01:00:00Z") });

    const result = await insights(db, { from: "2026-11-02", to: "2026-11-04" });
    expect(result.totals).toEqual({
      items: 7,
      open: 3,
      resolved: 4,
      byStatus: {
        open: 1,
        acknowledged: 0,
        needs_info: 1,
        in_progress: 0,
        wont_fix: 1,
        duplicate: 0,
        spam: 0,
        resolved: 4,
      },
    });
    // Resolved in the period counts by when it was resolved, whenever it was filed.
    expect(result.buckets.map((b) => [b.start, b.created, b.resolved])).toEqual([
      ["2026-11-02", 5, 0],
      ["2026-11-03", 0, 2],
      ["2026-11-04", 0, 1],
    ]);
  });
});

describe("insights on response, reporters and rewards", () => {
  rolledBack("takes the medians of the owner's first action and of resolution, in seconds", async (db) => {
    await register(db);
    const filed = "2026-11-02T08:00:00Z";
    const a = await file(db, at(filed));
    const b = await file(db, at(filed));
    const c = await file(db, at(filed));
    const d = await file(db, at(filed));
    await event(db, a, at(filed, 1), owner.toLowerCase()); // the owner's wallet in any case
    await event(db, a, at(filed, 5));
    await event(db, b, at(filed, 0.5), "service", "merged"); // not the owner's
    await event(db, b, at(filed, 3), owner, "labels");
    await event(db, c, at(filed, 2));
    await event(db, d, at(filed, 0.25), wallet(1), "follow_up"); // the submitter's
    // An owner who filed an item and answers a question on it acts as its submitter.
    const own = await file(db, at(filed), { submitterWallet: owner });
    await event(db, own, at(filed, 0.1), owner, "follow_up");
    // First actions after 1, 3 and 2 hours; d and the owner's own item have none and are left out.
    const result = await insights(db, { from: "2026-11-02", to: "2026-11-08" });
    expect(result.firstResponse).toEqual({ medianSeconds: 2 * 3600, count: 3 });

    for (const hours of [1, 2, 4, 5]) await file(db, at(filed), { resolvedAt: at(filed, hours) });
    const resolved = await insights(db, { from: "2026-11-02", to: "2026-11-08" });
    // The median of 1, 2, 4 and 5 hours lies halfway between the middle two.
    expect(resolved.resolution).toEqual({ medianSeconds: 3 * 3600, count: 4 });
  });

  rolledBack(
    "ranks the top ten reporters of the period, most items first, a wallet in any case as one",
    async (db) => {
      await register(db);
      const day = at("2026-11-02T08:00:00Z");
      for (let n = 1; n <= 12; n++) {
        for (let i = 0; i < n; i++) await file(db, day, { submitterWallet: wallet(n) });
      }
      await file(db, day, { submitterWallet: wallet(0xb).toUpperCase().replace("0X", "0x") });
      await file(db, day, { submitterWallet: null });
      for (let i = 0; i < 20; i++)
        await file(db, at("2026-10-01T08:00:00Z"), { submitterWallet: wallet(99) });

      const { topReporters } = await insights(db, { from: "2026-11-02", to: "2026-11-02" });
      expect(topReporters.map((r) => r.count)).toEqual([12, 12, 10, 9, 8, 7, 6, 5, 4, 3]);
      // A tie is broken by the wallet, so the order is stable.
      expect(topReporters.map((r) => r.wallet.toLowerCase())).toEqual(
        [0xb, 0xc, 0xa, 9, 8, 7, 6, 5, 4, 3].map(wallet),
      );
    },
  );

  rolledBack("adds up only the rewards paid on chain in the period, in base units", async (db) => {
    await register(db);
    const day = at("2026-11-02T08:00:00Z");
    // A payout is last written when it is marked paid: its updatedAt is when the reward landed.
    const payout = async (status: string, amount: string, paidAt = day, namespace = acme) => {
      const feedbackId = await file(db, at("2026-11-01T08:00:00Z"), { namespace });
      await db.insert(payouts).values({
        id: ref("po"),
        feedbackId,
        paymentId: ref("pay"),
        recipient: wallet(1),
        amount,
        memo: `reward:${feedbackId}`,
        status: status as "paid",
        createdAt: at("2026-10-01T08:00:00Z"),
        updatedAt: paidAt,
      });
    };
    await payout("paid", "250000");
    await payout("paid", "1000000");
    await payout("pending", "500000");
    await payout("refunding", "500000");
    await payout("refunded", "500000");
    await payout("paid", "2000000", at("2026-10-01T09:00:00Z"));
    await payout("paid", "2000000", day, ref("other"));

    const { rewardsPaid } = await insights(db, { from: "2026-11-02", to: "2026-11-08" });
    expect(rewardsPaid).toEqual({ count: 2, totalMicroUsd: "1250000", totalUsd: "1.25" });
  });
});

describe("who may read insights, and what they are when empty", () => {
  rolledBack(
    "shares the period's resolutions their submitters confirmed, and counts the disputed",
    async (db) => {
      await register(db);
      const day = "2026-11-03T08:00:00Z";
      const answer = async (id: string, hours: number, outcome: string) => {
        await db.insert(feedbackEvents).values({
          id: ref("ev"),
          feedbackId: id,
          namespace: acme,
          kind: "confirmation",
          actor: wallet(1),
          details: { outcome },
          createdAt: at(day, hours),
        });
      };
      const resolution = async (id: string, hours: number, from = "open") => {
        await db.insert(feedbackEvents).values({
          id: ref("ev"),
          feedbackId: id,
          namespace: acme,
          kind: "status",
          actor: owner,
          fromStatus: from as "open",
          toStatus: "resolved",
          createdAt: at(day, hours),
        });
      };
      const [a, b, c, d] = [
        await file(db, at(day)),
        await file(db, at(day)),
        await file(db, at(day)),
        await file(db, at(day)),
      ];
      for (const id of [a, b, c]) await resolution(id, 1);
      await answer(a, 2, "fixed");
      await answer(b, 2, "not_fixed");
      await resolution(b, 3); // resolved again: a second resolution in the period
      await answer(b, 4, "fixed");
      // Not the period's: a resolution and an answer on the day after it.
      await resolution(d, 40);
      await answer(d, 41, "fixed");
      const result = await insights(db, { from: "2026-11-02", to: "2026-11-03" });
      expect(result.confirmations).toEqual({
        resolutions: 4,
        confirmed: 2,
        disputed: 1,
        confirmedShare: 0.5,
      });
    },
  );

  rolledBack("answers the owner only", async (db) => {
    await register(db);
    await expect(insights(db, {}, stranger)).rejects.toMatchObject({ status: 403, code: "not-owner" });
    await expect(
      getInsights(owner, insightsQuerySchema.parse({ namespace: ref("nobody") }), db),
    ).rejects.toMatchObject({ status: 404 });
  });

  rolledBack("gives zeros for an empty namespace, never null or NaN, over the last 30 days", async (db) => {
    await register(db);
    const result = await insights(db, {});
    expect(result.buckets).toHaveLength(30);
    expect(result.to).toBe(new Date().toISOString().slice(0, 10));
    expect(result.buckets.every((b) => b.created + b.resolved + b.bug + b.feature + b.feedback === 0)).toBe(
      true,
    );
    expect(result).toMatchObject({
      totals: { items: 0, open: 0, resolved: 0 },
      firstResponse: { medianSeconds: 0, count: 0 },
      resolution: { medianSeconds: 0, count: 0 },
      topReporters: [],
      rewardsPaid: { count: 0, totalMicroUsd: "0", totalUsd: "0" },
      confirmations: { resolutions: 0, confirmed: 0, disputed: 0, confirmedShare: 0 },
    });
    expect(JSON.stringify(result)).not.toMatch(/null|NaN/);
  });
});

describe("the insights query", () => {
  const refused = (query: Record<string, string>) => {
    try {
      parseInput(insightsQuerySchema, { namespace: "acme-app", ...query });
    } catch (error) {
      expect(error).toMatchObject({ status: 400 });
      return (error as AppError).extra.errors?.map((e) => e.field);
    }
    return [];
  };

  it("refuses a bad period or bucket with a 400 naming the field", () => {
    expect(refused({ days: "0" })).toEqual(["days"]);
    expect(refused({ days: "366" })).toEqual(["days"]);
    expect(refused({ days: "ten" })).toEqual(["days"]);
    expect(refused({ days: "7", from: "2026-11-01" })).toEqual(["days"]);
    expect(refused({ from: "2026-11-05", to: "2026-11-01" })).toEqual(["from"]);
    expect(refused({ from: "2025-01-01", to: "2026-01-01" })).toEqual(["from"]);
    expect(refused({ from: "2026-13-01" })).toEqual(["from"]);
    expect(refused({ bucket: "month" })).toEqual(["bucket"]);
    expect(refused({ format: "csv" })).toEqual(["format"]);
    expect(refused({ from: "2025-01-01", to: "2025-12-31" })).toEqual([]);
    expect(refused({ days: "365", bucket: "week" })).toEqual([]);
  });
});
