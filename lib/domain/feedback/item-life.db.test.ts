import { and, eq, ne, sql } from "drizzle-orm";
import fc from "fast-check";
import { getAddress } from "viem";
import { describe, expect } from "vitest";
import type { DbOrTx } from "@/lib/db/client";
import { feedback, feedbackEvents, payouts } from "@/lib/db/schema";
import { getInsights } from "@/lib/domain/insights/get-insights";
import { acceptTransfer } from "@/lib/domain/members/accept-transfer";
import { addMember } from "@/lib/domain/members/add-member";
import { listMembers } from "@/lib/domain/members/list-members";
import { proposeTransfer } from "@/lib/domain/members/propose-transfer";
import { markPaid, markRefunded, markRefunding, payoutFor } from "@/lib/domain/rewards/payout-store";
import { commitRewardedResolve, holdForReward } from "@/lib/domain/rewards/resolve-with-reward";
import { confirmFixSchema } from "@/lib/schemas/confirm";
import { FEEDBACK_STATUSES, type FeedbackStatus } from "@/lib/schemas/feedback";
import { insightsQuerySchema } from "@/lib/schemas/insights";
import { listQuerySchema } from "@/lib/schemas/list";
import { addMemberSchema, proposeTransferSchema } from "@/lib/schemas/members";
import { resolveFeedbackSchema } from "@/lib/schemas/resolve";
import { changeLabelsSchema, changeStatusSchema, mergeSchema, unmergeSchema } from "@/lib/schemas/triage";
import { insertItem, insertNamespace, ref } from "@/testing/db-rows";
import { paidRow } from "@/testing/paid-row";
import { rolledBack } from "@/testing/rollback";
import { changeLabels } from "./change-labels";
import { changeStatus } from "./change-status";
import { confirmFix } from "./confirm-fix";
import { countFeedback } from "./count-feedback";
import { commitFollowUp } from "./follow-up";
import { groupReport, mergeReports, unmergeReports } from "./groups";
import { listFeedback } from "./list-feedback";
import { resolveFeedback } from "./resolve-feedback";

// An item's life as a model: random sequences of every owner and submitter action, on the real
// database through the domain verbs, checked after each step against what the model says changed.
const owner = "0x00000000000000000000000000000000000000d1";
// The namespace's team: an admin, a triager and a viewer act beside the owner; the heir accepts the namespace
// when a transfer runs, after which the owner above stays on as an admin and acts as one.
const [admin, triager, viewer, heir] = [0xa1, 0xa2, 0xa3, 0xa4].map((n) =>
  getAddress(`0x${n.toString(16).padStart(40, "0")}`),
) as [string, string, string, string];
const TRIAGING = [owner, admin, triager] as const;
const agents = [
  "0x00000000000000000000000000000000000000d2",
  "0x00000000000000000000000000000000000000d3",
] as const;

type Model = {
  ns: string;
  ids: string[];
  /** Whether the namespace was handed to `heir` (it happens once). */
  transferred: boolean;
  /** What each item must read as: its status, its paid rewards, and how many status changes it had. */
  items: Map<
    string,
    {
      status: FeedbackStatus;
      rewards: number;
      statusEvents: number;
      /** Whether its submitter already answered the resolution it is in (confirmed or disputed). */
      answered: boolean;
    }
  >;
};
type Real = { db: DbOrTx };

type Snapshot = Map<string, string>;
/** What an action may change only on the items it names: state, resolution, reward and labels. */
async function snapshot(db: DbOrTx, ns: string): Promise<Snapshot> {
  const rows = await db
    .select({
      id: feedback.id,
      state: sql<string>`${feedback.status} || '|' || coalesce(${feedback.resolveMessage}, '') || '|' || coalesce(${feedback.rewardAmount}, '') || '|' || array_to_string(${feedback.labels}, ',')`,
    })
    .from(feedback)
    .where(eq(feedback.namespace, ns));
  return new Map(rows.map((r) => [r.id, r.state]));
}

/** Checks what the database says against the model, and that only `named` items changed since `before`. */
async function check(db: DbOrTx, m: Model, before: Snapshot, named: readonly string[]) {
  const after = await snapshot(db, m.ns);
  for (const [id, state] of before) {
    if (!named.includes(id)) expect(after.get(id), `${id} changed though not named`).toBe(state);
  }
  const rows = await db
    .select({ id: feedback.id, status: feedback.status, held: feedback.resolvingPaymentId })
    .from(feedback)
    .where(eq(feedback.namespace, m.ns));
  for (const row of rows) {
    const expected = m.items.get(row.id)!;
    expect(row.status, row.id).toBe(expected.status);
    // Nothing is held once its payment finished (every rewarded resolve here finishes in its step).
    expect(row.held, row.id).toBeNull();
    const paid = await db
      .select({ n: sql<number>`count(*)::int` })
      .from(payouts)
      .where(and(eq(payouts.feedbackId, row.id), eq(payouts.status, "paid")));
    expect(paid[0]!.n, `${row.id} rewards`).toBe(expected.rewards);
    expect(paid[0]!.n).toBeLessThanOrEqual(1);
    const events = await db
      .select({ n: sql<number>`count(*)::int` })
      .from(feedbackEvents)
      .where(
        and(
          eq(feedbackEvents.feedbackId, row.id),
          sql`${feedbackEvents.fromStatus} is distinct from ${feedbackEvents.toStatus}`,
          ne(feedbackEvents.kind, "labels"),
        ),
      );
    expect(events[0]!.n, `${row.id} history`).toBe(expected.statusEvents);
  }
  // The list, the counts and the insights agree with the model.
  const open = [...m.items.values()].filter((i) => i.status !== "resolved").length;
  const listed = await listFeedback(owner, listQuerySchema.parse({ namespace: m.ns, limit: "100" }), db);
  expect(listed.feedback.map((f) => [f.id, f.status]).sort()).toEqual(
    [...m.items].map(([id, i]) => [id, i.status]).sort(),
  );
  const counts = await countFeedback(owner, m.ns, db);
  expect(counts.total).toEqual({ open, resolved: m.items.size - open });
  const insights = await getInsights(owner, insightsQuerySchema.parse({ namespace: m.ns }), db);
  expect([insights.totals.open, insights.totals.resolved]).toEqual([open, m.items.size - open]);
  const rewards = [...m.items.values()].reduce((n, i) => n + i.rewards, 0);
  expect(insights.rewardsPaid.count).toBe(rewards);
}

/** Runs an action, applies it to the model, and checks the database agrees and only `named` changed. */
async function act(
  r: Real,
  m: Model,
  named: readonly string[],
  action: () => Promise<unknown>,
  expect: () => void = () => {},
) {
  const before = await snapshot(r.db, m.ns);
  await action();
  expect();
  await check(r.db, m, before, named);
}

let clock = Date.parse("2026-11-05T00:00:00Z");
const pick = (m: Model, i: number) => m.ids[i % m.ids.length]!;
const record = (m: Model, id: string, status: FeedbackStatus) => {
  const item = m.items.get(id)!;
  if (item.status !== status) item.statusEvents++;
  // A new resolution may be answered again.
  if (status === "resolved" && item.status !== "resolved") item.answered = false;
  item.status = status;
};

const paid = paidRow;

const submit = (n: number) => ({
  check: () => true,
  async run(m: Model, r: Real) {
    clock += 1000;
    const id = await insertItem(r.db, {
      namespace: m.ns,
      submitterWallet: agents[n % 2],
      title: n % 3 === 0 ? "Checkout button does nothing" : `Report ${n}: something else entirely`,
      description: "Clicking Checkout on /cart sends no request and shows no error.",
      createdAt: new Date(clock),
      groupedAt: null,
    });
    m.ids.push(id);
    m.items.set(id, { status: "open", rewards: 0, statusEvents: 0, answered: false });
    // The service's suggestion runs as it does after every paid submission: it changes nobody's state.
    await act(r, m, [id], () => groupReport(id, r.db));
  },
  toString: () => `submit(${n})`,
});

const status = (i: number, j: number, s: FeedbackStatus, by: number) => ({
  check: (m: Model) => m.ids.length > 0,
  async run(m: Model, r: Real) {
    const ids = [...new Set([pick(m, i), pick(m, j)])];
    await act(
      r,
      m,
      ids,
      () =>
        changeStatus(
          TRIAGING[by % TRIAGING.length]!,
          changeStatusSchema.parse({ namespace: m.ns, feedbackIds: ids, status: s, message: "why" }),
          r.db,
        ),
      () => {
        for (const id of ids) record(m, id, s);
      },
    );
  },
  toString: () => `status(${i}, ${j}, ${s}, by ${["owner", "admin", "triager"][by % 3]})`,
});

/** The viewer tries to triage: refused by its role, and nothing changes. */
const viewerTriage = (i: number) => ({
  check: (m: Model) => m.ids.length > 0,
  async run(m: Model, r: Real) {
    const id = pick(m, i);
    await act(r, m, [], () =>
      expect(
        changeStatus(
          viewer,
          changeStatusSchema.parse({ namespace: m.ns, feedbackIds: [id], status: "wont_fix" }),
          r.db,
        ),
      ).rejects.toMatchObject({ code: "role-forbidden" }),
    );
  },
  toString: () => `viewerTriage(${i})`,
});

/** The owner hands the namespace to `heir`, who accepts: no item changes, and the owner stays an admin. */
const transfer = () => ({
  check: (m: Model) => !m.transferred,
  async run(m: Model, r: Real) {
    await act(r, m, [], async () => {
      await proposeTransfer(owner, proposeTransferSchema.parse({ namespace: m.ns, to: heir }), r.db);
      await acceptTransfer(heir, m.ns, r.db);
    });
    m.transferred = true;
    const team = await listMembers(heir, m.ns, r.db);
    expect(team.owner).toBe(heir);
    expect(team.members.find((x) => x.wallet.toLowerCase() === owner)?.role).toBe("admin");
    await expect(
      proposeTransfer(owner, proposeTransferSchema.parse({ namespace: m.ns, to: admin }), r.db),
    ).rejects.toMatchObject({ code: "role-forbidden" });
  },
  toString: () => "transfer()",
});

const resolve = (i: number, also: number[]) => ({
  check: (m: Model) => m.ids.length > 0,
  async run(m: Model, r: Real) {
    const id = pick(m, i);
    const others = [...new Set(also.map((a) => pick(m, a)))].filter((o) => o !== id);
    if (m.items.get(id)!.status === "resolved") {
      await expect(
        resolveFeedback(owner, resolveFeedbackSchema.parse({ feedbackId: id }), r.db),
      ).rejects.toMatchObject({ code: "already-resolved" });
      return;
    }
    await act(
      r,
      m,
      [id, ...others],
      () =>
        resolveFeedback(
          owner,
          resolveFeedbackSchema.parse({ feedbackId: id, message: "Fixed", alsoResolve: others }),
          r.db,
        ),
      () => {
        for (const o of [id, ...others]) record(m, o, "resolved");
      },
    );
  },
  toString: () => `resolve(${i}, also ${also})`,
});

const reward = (i: number, lands: boolean) => ({
  check: (m: Model) => m.ids.length > 0,
  async run(m: Model, r: Real) {
    const id = pick(m, i);
    const item = m.items.get(id)!;
    // The model says whether a reward may be paid: an item resolved, or rewarded once already, must be
    // refused by the hold every rewarded resolve takes before any charge, changing nothing.
    if (item.status === "resolved" || item.rewards > 0) {
      await act(r, m, [], () =>
        expect(
          paid(r.db, "resolve", owner, (tx, paymentId) => holdForReward(tx, id, paymentId)),
        ).rejects.toMatchObject({ code: "already-resolved" }),
      );
      return;
    }
    await act(
      r,
      m,
      [id],
      async () => {
        const ctx = await paid(r.db, "resolve", owner, (tx, paymentId) => holdForReward(tx, id, paymentId));
        const input = {
          feedbackId: id,
          alsoResolve: [],
          message: "Thanks",
          publicNote: null,
          rewardAmount: "0.1",
          resolver: owner,
          rewardMicroUsd: "100000",
        };
        await commitRewardedResolve(input, ctx);
        const payout = (await payoutFor(r.db, id))!;
        if (lands) {
          await markPaid(r.db, payout, `0x${"cd".repeat(32)}`);
        } else {
          await markRefunding(r.db, payout, "the payout transaction reverted");
          await markRefunded(r.db, (await payoutFor(r.db, id))!, `0x${"ef".repeat(32)}`);
        }
      },
      () => {
        record(m, id, "resolved");
        if (lands) item.rewards++;
        else record(m, id, "open");
      },
    );
  },
  toString: () => `reward(${i}, ${lands ? "paid" : "refunded"})`,
});

const followUp = (i: number) => ({
  check: (m: Model) => m.ids.length > 0,
  async run(m: Model, r: Real) {
    const id = pick(m, i);
    if (m.items.get(id)!.status !== "needs_info") return;
    const submitter = (
      await r.db.select({ w: feedback.submitterWallet }).from(feedback).where(eq(feedback.id, id))
    )[0]!.w;
    await act(
      r,
      m,
      [id],
      async () => {
        const ctx = await paid(r.db, "followUp", submitter as `0x${string}`);
        await commitFollowUp(
          {
            feedbackId: id,
            message: "Safari 17",
            steps: null,
            expected: null,
            actual: null,
            context: null,
            callbackUrl: null,
          },
          ctx,
        );
      },
      () => record(m, id, "open"),
    );
  },
  toString: () => `followUp(${i})`,
});

/**
 * The submitter answers the resolution: refused unless the item is resolved and this resolution is not
 * answered yet; "not_fixed" reopens it (a reward paid stays the one reward, never paid again).
 */
const confirm = (i: number, outcome: "fixed" | "not_fixed") => ({
  check: (m: Model) => m.ids.length > 0,
  async run(m: Model, r: Real) {
    const id = pick(m, i);
    const item = m.items.get(id)!;
    const submitter = (
      await r.db.select({ w: feedback.submitterWallet }).from(feedback).where(eq(feedback.id, id))
    )[0]!.w!;
    const answer = () =>
      confirmFix(submitter, confirmFixSchema.parse({ id, outcome, note: "checked" }), r.db);
    if (item.status !== "resolved" || item.answered) {
      const code = item.status !== "resolved" ? "not-resolved" : "already-confirmed";
      await act(r, m, [], () => expect(answer()).rejects.toMatchObject({ code }));
      return;
    }
    await act(r, m, [id], answer, () => {
      item.answered = true;
      if (outcome === "not_fixed") record(m, id, "open");
    });
  },
  toString: () => `confirm(${i}, ${outcome})`,
});

const merge = (i: number, j: number) => ({
  check: (m: Model) => m.ids.length > 1,
  async run(m: Model, r: Real) {
    const [into, other] = [pick(m, i), pick(m, j)];
    if (into === other) return;
    await act(r, m, [], () =>
      mergeReports(owner, mergeSchema.parse({ namespace: m.ns, into, feedbackIds: [other] }), r.db),
    );
  },
  toString: () => `merge(${i}, ${j})`,
});

const unmerge = (i: number) => ({
  check: (m: Model) => m.ids.length > 0,
  async run(m: Model, r: Real) {
    await act(r, m, [], () =>
      unmergeReports(owner, unmergeSchema.parse({ namespace: m.ns, feedbackIds: [pick(m, i)] }), r.db),
    );
  },
  toString: () => `unmerge(${i})`,
});

const label = (i: number) => ({
  check: (m: Model) => m.ids.length > 0,
  async run(m: Model, r: Real) {
    const id = pick(m, i);
    await act(r, m, [id], () =>
      changeLabels(
        owner,
        changeLabelsSchema.parse({ namespace: m.ns, feedbackIds: [id], add: [`l${i % 3}`] }),
        r.db,
      ),
    );
  },
  toString: () => `label(${i})`,
});

const index = fc.nat(20);
const commands = [
  fc.nat(100).map(submit),
  fc
    .tuple(index, index, fc.constantFrom(...FEEDBACK_STATUSES), fc.nat(2))
    .map(([i, j, s, by]) => status(i, j, s, by)),
  index.map(viewerTriage),
  fc.constant(null).map(transfer),
  fc.tuple(index, fc.array(index, { maxLength: 3 })).map(([i, also]) => resolve(i, also)),
  fc.tuple(index, fc.boolean()).map(([i, lands]) => reward(i, lands)),
  index.map(followUp),
  fc.tuple(index, fc.constantFrom("fixed" as const, "not_fixed" as const)).map(([i, o]) => confirm(i, o)),
  fc.tuple(index, index).map(([i, j]) => merge(i, j)),
  index.map(unmerge),
  index.map(label),
];

describe("an item's life", () => {
  rolledBack(
    "every action (by the owner or its members, before and after a transfer; confirming, disputing and reopening after a reward too) changes only what it names, one reward per item, nothing held, and every view agrees",
    async (db) => {
      await fc.assert(
        fc.asyncProperty(fc.commands(commands, { maxCommands: 25 }), async (cmds) => {
          const ns = ref("life");
          await insertNamespace(db, { name: ns, ownerWallet: owner });
          for (const [wallet, role] of [
            [admin, "admin"],
            [triager, "triager"],
            [viewer, "viewer"],
          ] as const) {
            await addMember(owner, addMemberSchema.parse({ namespace: ns, wallet, role }), db);
          }
          const model: Model = { ns, ids: [], items: new Map(), transferred: false };
          await fc.asyncModelRun(() => ({ model, real: { db } }), cmds);
        }),
        { numRuns: 40 },
      );
    },
    240_000,
  );
});
