import { eq, sql } from "drizzle-orm";
import { describe, expect } from "vitest";
import type { DbOrTx } from "@/lib/db/client";
import { type feedback, namespaces, webhookDeliveries } from "@/lib/db/schema";
import { listOwnedNamespaces } from "@/lib/domain/namespace/list-owned-namespaces";
import { requireAccess } from "@/lib/domain/namespace/require-access";
import { exportQuerySchema, listQuerySchema, statusQuerySchema } from "@/lib/schemas/list";
import { resolveFeedbackSchema } from "@/lib/schemas/resolve";
import { changeLabelsSchema, changeStatusSchema, mergeSchema, unmergeSchema } from "@/lib/schemas/triage";
import { insertItem, insertNamespace, ref } from "@/testing/db-rows";
import { rolledBack } from "@/testing/rollback";
import { changeLabels } from "./change-labels";
import { changeStatus } from "./change-status";
import { countFeedback } from "./count-feedback";
import { exportFeedback } from "./export-feedback";
import { getFeedback } from "./get-feedback";
import { groupReport, mergeReports, unmergeReports } from "./groups";
import { inboxFilter, listFeedback, RANK_WINDOW } from "./list-feedback";
import { listSubmissions } from "./list-submissions";
import { pageOf } from "./page";
import { resolveFeedback } from "./resolve-feedback";

// The inbox's rules, on a real database with no chain: each test writes its own scene in a
// transaction that always rolls back, so nothing here needs a payment and nothing is left behind.
const owner = "0x00000000000000000000000000000000000000a1";
const agent = "0x00000000000000000000000000000000000000a2";
const stranger = "0x00000000000000000000000000000000000000a3";
// Names of this run only (each test rolls back, so tests may share them): a shared PostgreSQL may hold anything.
const [acme, beta] = [ref("acme"), ref("beta")];

const register = (db: DbOrTx, name: string, ownerWallet = owner) =>
  insertNamespace(db, { name, ownerWallet });

// Each item is filed a second after the last, so "newest first" is the order the test filed them in.
let clock = Date.parse("2026-11-01T00:00:00Z");
async function file(db: DbOrTx, namespace: string, item: Partial<typeof feedback.$inferInsert> = {}) {
  clock += 1000;
  return insertItem(db, {
    namespace,
    submitterWallet: agent,
    createdAt: new Date(clock),
    ...(item.resolved ? { status: "resolved" as const } : {}),
    ...item,
  });
}

const list = (wallet: string, query: Record<string, unknown>, db: DbOrTx) =>
  listFeedback(wallet, listQuerySchema.parse(query), db);

describe("the owner's inbox", () => {
  rolledBack("lists a namespace newest first and pages it with cursors bound to the query", async (db) => {
    await register(db, acme);
    const ids = [];
    for (let i = 0; i < 5; i++) ids.push(await file(db, acme));
    await file(db, ref("other"));
    const first = await list(owner, { namespace: acme, limit: "2" }, db);
    expect(first.feedback.map((f) => f.id)).toEqual([ids[4], ids[3]]);
    const rest = await list(owner, { namespace: acme, limit: "10", cursor: first.nextCursor }, db);
    expect(rest.feedback.map((f) => f.id)).toEqual([ids[2], ids[1], ids[0]]);
    expect(rest.nextCursor).toBeUndefined();
    await expect(list(owner, { namespace: acme, type: "bug", cursor: first.nextCursor }, db)).rejects.toThrow(
      /cursor/,
    );
  });

  rolledBack("filters by type, severity, state and literal text", async (db) => {
    await register(db, acme);
    const crash = await file(db, acme, { title: "Crash on save", severity: "high" });
    const dark = await file(db, acme, {
      type: "feature",
      title: "Dark mode",
      description: "100% dark_mode",
    });
    const done = await file(db, acme, { title: "Old bug", resolved: true });
    const ids = async (query: Record<string, unknown>) =>
      (await list(owner, { namespace: acme, ...query }, db)).feedback.map((f) => f.id);
    expect(await ids({ type: "feature" })).toEqual([dark]);
    expect(await ids({ severity: "high" })).toEqual([crash]);
    expect(await ids({ resolved: "true" })).toEqual([done]);
    expect(await ids({ resolved: "false" })).toEqual([dark, crash]);
    expect(await ids({ q: "CRASH" })).toEqual([crash]);
    // % and _ are text to find, never wildcards.
    expect(await ids({ q: "100% dark_" })).toEqual([dark]);
    expect(await ids({ q: "1_0" })).toEqual([]);
  });

  rolledBack("is the owner's only: 403 for another wallet, 404 for a name nobody registered", async (db) => {
    await register(db, acme);
    await expect(list(stranger, { namespace: acme }, db)).rejects.toMatchObject({ code: "not-owner" });
    await expect(list(owner, { namespace: ref("nobody") }, db)).rejects.toMatchObject({
      code: "namespace-not-found",
    });
    expect((await requireAccess(owner.toUpperCase().replace("0X", "0x"), acme, "ownership", db)).name).toBe(
      acme,
    );
  });

  rolledBack("counts open and resolved items per type", async (db) => {
    await register(db, acme);
    await file(db, acme);
    await file(db, acme, { resolved: true });
    await file(db, acme, { type: "feedback" });
    const counts = await countFeedback(owner, acme, db);
    expect(counts.total).toEqual({ open: 2, resolved: 1 });
    expect(counts.byType).toEqual({
      bug: { open: 1, resolved: 1 },
      feature: { open: 0, resolved: 0 },
      feedback: { open: 1, resolved: 0 },
    });
  });

  rolledBack("lists the namespaces a wallet owns", async (db) => {
    await register(db, acme);
    await register(db, beta);
    await register(db, ref("theirs"), stranger);
    const mine = await listOwnedNamespaces(owner, db);
    expect(mine.namespaces.map((n) => n.namespace).sort()).toEqual([acme, beta].sort());
  });
});

describe("one item", () => {
  rolledBack("is read by its namespace's owner and its submitter, and by nobody else", async (db) => {
    await register(db, acme);
    const id = await file(db, acme, { steps: ["Open", "Save"] });
    expect((await getFeedback(owner, id, db)).steps).toEqual(["Open", "Save"]);
    expect((await getFeedback(agent, id, db)).id).toBe(id);
    await expect(getFeedback(stranger, id, db)).rejects.toMatchObject({ code: "forbidden" });
    await expect(getFeedback(owner, ref("fb"), db)).rejects.toMatchObject({ code: "feedback-not-found" });
  });

  rolledBack("is resolved once, with its webhook event in the same transaction", async (db) => {
    await register(db, acme);
    await db
      .update(namespaces)
      .set({ webhookUrl: "https://hooks.example/x" })
      .where(eq(namespaces.name, acme));
    const id = await file(db, acme);
    const input = resolveFeedbackSchema.parse({ feedbackId: id, message: "Fixed in 1.2" });
    await expect(resolveFeedback(stranger, input, db)).rejects.toMatchObject({ code: "not-owner" });
    const resolved = await resolveFeedback(owner, input, db);
    expect(resolved).toMatchObject({ id, resolved: true, resolvedBy: owner, message: "Fixed in 1.2" });
    await expect(resolveFeedback(owner, input, db)).rejects.toMatchObject({ code: "already-resolved" });
    const events = await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.namespace, acme));
    expect(events.map((e) => e.eventType).sort()).toEqual(["feedback.resolved", "feedback.status_changed"]);
  });

  rolledBack("held by a paid resolve in flight cannot be resolved for free", async (db) => {
    await register(db, acme);
    const id = await file(db, acme, { resolvingPaymentId: ref("pay") });
    const input = resolveFeedbackSchema.parse({ feedbackId: id });
    await expect(resolveFeedback(owner, input, db)).rejects.toMatchObject({ code: "already-resolved" });
  });
});

describe("the submitter's status", () => {
  rolledBack("lists what a wallet submitted, across namespaces or in one", async (db) => {
    await register(db, acme);
    const a = await file(db, acme);
    const b = await file(db, ref("unregistered"));
    await file(db, acme, { submitterWallet: stranger });
    const all = await listSubmissions(agent, statusQuerySchema.parse({}), db);
    expect(all.feedback.map((f) => f.id)).toEqual([b, a]);
    const one = await listSubmissions(agent, statusQuerySchema.parse({ namespace: acme }), db);
    expect(one.feedback.map((f) => f.id)).toEqual([a]);
  });
});

describe("the rolled-back transaction", () => {
  rolledBack("writes a namespace", async (db) => {
    await register(db, acme);
  });
  rolledBack("leaves nothing for the next test", async (db) => {
    expect(await db.select().from(namespaces).where(eq(namespaces.name, acme))).toEqual([]);
  });
});

describe("triage", () => {
  const change = (wallet: string, input: Record<string, unknown>, db: DbOrTx) =>
    changeStatus(wallet, changeStatusSchema.parse({ namespace: acme, ...input }), db);

  rolledBack(
    "moves many items at once, skips those already there, and writes each change's history",
    async (db) => {
      await register(db, acme);
      const [a, b, c] = [
        await file(db, acme),
        await file(db, acme),
        await file(db, acme, { status: "acknowledged" }),
      ];
      const result = await change(
        owner,
        { feedbackIds: [a, b, c], status: "acknowledged", message: "Seen" },
        db,
      );
      expect(result.changed).toEqual([
        { id: a, from: "open" },
        { id: b, from: "open" },
      ]);
      expect(result.unchanged).toEqual([c]);
      const record = await getFeedback(agent, a, db);
      expect(record).toMatchObject({ status: "acknowledged", resolved: false });
      expect(record.history).toEqual([
        expect.objectContaining({
          kind: "status",
          actor: owner,
          from: "open",
          to: "acknowledged",
          message: "Seen",
        }),
      ]);
      expect((await getFeedback(owner, c, db)).history).toEqual([]);
    },
  );

  rolledBack("resolves with the contract's fields and reopens by clearing them", async (db) => {
    await register(db, acme);
    const id = await file(db, acme);
    await change(owner, { feedbackIds: [id], status: "resolved", message: "Done" }, db);
    expect(await getFeedback(owner, id, db)).toMatchObject({
      status: "resolved",
      resolved: true,
      resolveMessage: "Done",
      resolvedBy: owner,
    });
    await change(owner, { feedbackIds: [id], status: "in_progress" }, db);
    const reopened = await getFeedback(owner, id, db);
    expect(reopened).toMatchObject({
      status: "in_progress",
      resolved: false,
      resolveMessage: null,
      resolvedAt: null,
    });
    expect(reopened.history.map((h) => `${h.from}>${h.to}`)).toEqual([
      "open>resolved",
      "resolved>in_progress",
    ]);
    // Reopened, it can be resolved through the contract's resolve again.
    const again = await resolveFeedback(owner, resolveFeedbackSchema.parse({ feedbackId: id }), db);
    expect(again.resolved).toBe(true);
    expect((await getFeedback(owner, id, db)).status).toBe("resolved");
  });

  rolledBack(
    "changes all or nothing: an item of another namespace is named, and nothing moves",
    async (db) => {
      await register(db, acme);
      await register(db, beta);
      const mine = await file(db, acme);
      const theirs = await file(db, beta);
      await expect(change(owner, { feedbackIds: [mine, theirs], status: "spam" }, db)).rejects.toMatchObject({
        code: "feedback-not-found",
        extra: { errors: [{ field: "feedbackIds.1", message: "is not an item of this namespace" }] },
      });
      expect((await getFeedback(owner, mine, db)).status).toBe("open");
    },
  );

  rolledBack("is the owner's only, and leaves an item a rewarded resolve holds alone", async (db) => {
    await register(db, acme);
    const id = await file(db, acme);
    await expect(change(agent, { feedbackIds: [id], status: "spam" }, db)).rejects.toMatchObject({
      code: "not-owner",
    });
    const held = await file(db, acme, { resolvingPaymentId: ref("pay") });
    await expect(change(owner, { feedbackIds: [id, held], status: "wont_fix" }, db)).rejects.toMatchObject({
      code: "item-held",
      extra: { errors: [{ field: "feedbackIds.1" }] },
    });
  });

  rolledBack("filters the inbox by one status or several", async (db) => {
    await register(db, acme);
    const open = await file(db, acme);
    const asked = await file(db, acme, { status: "needs_info" });
    await file(db, acme, { status: "spam" });
    const ids = async (status: string) =>
      (await list(owner, { namespace: acme, status }, db)).feedback.map((f) => f.id);
    expect(await ids("needs_info")).toEqual([asked]);
    expect(await ids("open,needs_info")).toEqual([asked, open]);
    expect(() => listQuerySchema.parse({ namespace: acme, status: "open,closed" })).toThrow(/one or more of/);
  });

  rolledBack("pages through several statuses newest first, each item once", async (db) => {
    await register(db, acme);
    const statuses = [
      "open",
      "in_progress",
      "spam",
      "needs_info",
      "in_progress",
      "open",
      "needs_info",
    ] as const;
    const filed: { id: string; status: string }[] = [];
    for (const status of [...statuses, ...statuses])
      filed.push({ id: await file(db, acme, { status }), status });
    // Two items filed in the same millisecond, newer than the rest, in different statuses: the id breaks the tie.
    clock += 1000;
    const at = new Date(clock);
    for (const status of ["needs_info", "in_progress"] as const) {
      filed.push({
        id: await insertItem(db, { namespace: acme, status, createdAt: at, id: ref("fbtie") }),
        status,
      });
    }
    const wanted = new Set(["in_progress", "needs_info"]);
    const expected = filed
      .map((f, i) => ({ ...f, i }))
      .filter((f) => wanted.has(f.status))
      .sort((a, b) => (a.i >= 14 && b.i >= 14 ? (a.id < b.id ? 1 : -1) : b.i - a.i))
      .map((f) => f.id);
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await list(
        owner,
        { namespace: acme, status: "needs_info,in_progress", limit: 3, cursor },
        db,
      );
      seen.push(...page.feedback.map((f) => f.id));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toEqual(expected);
  });

  rolledBack("shows the submitter each item's status and the owner's messages", async (db) => {
    await register(db, acme);
    const id = await file(db, acme);
    await change(owner, { feedbackIds: [id], status: "needs_info", message: "Which version?" }, db);
    const mine = await listSubmissions(agent, statusQuerySchema.parse({ namespace: acme }), db);
    expect(mine.feedback[0]).toMatchObject({
      status: "needs_info",
      history: [{ kind: "status", to: "needs_info", message: "Which version?" }],
    });
  });

  rolledBack("keeps status and the contract's resolved together in the database itself", async (db) => {
    await register(db, acme);
    await expect(file(db, acme, { status: "resolved", resolved: false })).rejects.toThrow();
  });
});

describe("search", () => {
  rolledBack(
    "finds stemmed words in every text field, and literal parts of the title or description",
    async (db) => {
      await register(db, acme);
      const crash = await file(db, acme, { title: "App crashes on save", description: "It crashed twice." });
      const steps = await file(db, acme, {
        title: "Odd export",
        steps: ["Open settings", "Click Export CSV"],
      });
      const actual = await file(db, acme, { title: "Wrong total", actual: "The invoice total is doubled" });
      const code = await file(db, acme, { title: "Error E_42x on login", description: "Seen since v2." });
      const ids = async (q: string) =>
        (await list(owner, { namespace: acme, q }, db)).feedback.map((f) => f.id);
      expect(await ids("crash")).toEqual([crash]);
      expect(await ids("settings")).toEqual([steps]);
      expect(await ids("invoices doubling")).toEqual([actual]);
      // Part of a word: no lexeme matches it, the literal search does.
      expect(await ids("E_42")).toEqual([code]);
      expect(await ids('"total is doubled" -invoice')).toEqual([]);
    },
  );

  rolledBack("finds a phrase of several words literally, not its words apart", async (db) => {
    await register(db, acme);
    // No lexeme matches "42x o": only the literal search can find it, in the title or the description.
    const inTitle = await file(db, acme, { title: "Error E_42x on login" });
    const inDescription = await file(db, acme, { title: "Odd", description: "Saw ERROR E_42X ON save." });
    await file(db, acme, { title: "Error E_42x then on login", description: "Seen twice." });
    const ids = async (q: string) =>
      (await list(owner, { namespace: acme, q }, db)).feedback.map((f) => f.id).sort();
    expect(await ids("42x o")).toEqual([inTitle, inDescription].sort());
    expect(await ids("42X  O")).toEqual([]);
    expect(await ids("r E_42x o")).toEqual([inTitle, inDescription].sort());
  });

  rolledBack("marks what matched in the title and an excerpt of the description", async (db) => {
    await register(db, acme);
    await file(db, acme, { title: "App crashes on save", description: "It crashed twice while saving." });
    const [item] = (await list(owner, { namespace: acme, q: "crash" }, db)).feedback;
    expect(item?.highlights?.title).toEqual([
      { text: "App ", match: false },
      { text: "crashes", match: true },
      { text: " on save", match: false },
    ]);
    expect(item?.highlights?.description.filter((f) => f.match).map((f) => f.text)).toEqual(["crashed"]);
    // Without a search there is nothing to mark.
    expect((await list(owner, { namespace: acme }, db)).feedback[0]?.highlights).toBeUndefined();
  });

  rolledBack("ranks by relevance when asked, and pages the ranked results", async (db) => {
    await register(db, acme);
    const weak = await file(db, acme, { title: "Slow page", description: "Checkout is slow." });
    const strong = await file(db, acme, {
      title: "Checkout broken",
      description: "Checkout fails; checkout errors.",
    });
    const none = await file(db, acme, { title: "Dark mode" });
    const newest = await list(owner, { namespace: acme, q: "checkout" }, db);
    expect(newest.feedback.map((f) => f.id)).toEqual([strong, weak]);
    const first = await list(owner, { namespace: acme, q: "checkout", sort: "relevance", limit: "1" }, db);
    expect(first.feedback.map((f) => f.id)).toEqual([strong]);
    const rest = await list(
      owner,
      { namespace: acme, q: "checkout", sort: "relevance", cursor: first.nextCursor },
      db,
    );
    expect(rest.feedback.map((f) => f.id)).toEqual([weak]);
    expect(rest.nextCursor).toBeUndefined();
    expect(none).toBeDefined();
    // A ranked cursor is refused by the newest-first query, and the other way round.
    await expect(
      list(owner, { namespace: acme, q: "checkout", cursor: first.nextCursor }, db),
    ).rejects.toMatchObject({
      code: "invalid-cursor",
    });
    expect(() => listQuerySchema.parse({ namespace: acme, sort: "relevance" })).toThrow(/needs a search/);
  });

  rolledBack("ranks only the newest matches of a search that has more than the window", async (db) => {
    await register(db, acme);
    // The best match is the oldest: outside a window of two, the two newest are ranked instead.
    const best = await file(db, acme, {
      title: "Checkout checkout",
      description: "Checkout fails at checkout.",
    });
    const weak = await file(db, acme, { title: "Slow page", description: "Checkout is slow." });
    const strong = await file(db, acme, { title: "Checkout broken", description: "Checkout fails." });
    const ranked = (rankWindow: number) =>
      pageOf(db, {
        ...inboxFilter(listQuerySchema.parse({ namespace: acme, q: "checkout", sort: "relevance" })),
        rankWindow,
        limit: 10,
      });
    expect((await ranked(10)).rows.map((r) => r.id)).toEqual([best, strong, weak]);
    expect((await ranked(2)).rows.map((r) => r.id)).toEqual([strong, weak]);
    expect(RANK_WINDOW).toBe(5_000);
  });
});

describe("search beyond the newest items", () => {
  rolledBack(
    "finds rare matches among old items and pages them in order, without a gap or a repeat",
    async (db) => {
      await register(db, acme);
      // 2,500 items, newest last; every 100th mentions a needle, so only 5 of the newest 2,000 do.
      await db.execute(sql`
      insert into feedback (id, namespace, type, title, description, targets, payment_id, created_at)
      select 'fb_many_' || lpad(i::text, 5, '0'), ${acme}, 'bug', 'Report ' || i,
             case when i % 100 = 0 then 'A rare needle here' else 'Nothing to see' end,
             '[]'::jsonb, 'pay_many_' || i, timestamptz '2026-01-01' + make_interval(secs => i)
      from generate_series(1, 2500) as i`);
      const expected = Array.from(
        { length: 25 },
        (_, k) => `fb_many_${String(2500 - k * 100).padStart(5, "0")}`,
      );
      const seen: string[] = [];
      let cursor: string | undefined;
      do {
        const page = await list(
          owner,
          { namespace: acme, q: "needle", limit: "7", ...(cursor ? { cursor } : {}) },
          db,
        );
        seen.push(...page.feedback.map((f) => f.id));
        cursor = page.nextCursor;
      } while (cursor);
      expect(seen).toEqual(expected);
      // A literal part of a word, and a word nobody wrote, take the same path.
      expect((await list(owner, { namespace: acme, q: "eedl", limit: "100" }, db)).count).toBe(25);
      expect((await list(owner, { namespace: acme, q: "zyxwvut" }, db)).count).toBe(0);
    },
  );

  rolledBack("exports only what the search matches", async (db) => {
    await register(db, acme);
    const hit = await file(db, acme, { title: "Crash on save" });
    await file(db, acme, { title: "Dark mode" });
    const out = await exportFeedback(
      owner,
      exportQuerySchema.parse({ namespace: acme, q: "crash", format: "json" }),
      db,
    );
    const records = JSON.parse(await new Response(out.body).text());
    expect(records.map((r: { id: string }) => r.id)).toEqual([hit]);
  });

  rolledBack("exports every item's context, which a list page leaves in the database", async (db) => {
    await register(db, acme);
    const context = `Stack trace\n${"at frame\n".repeat(500)}`;
    const hit = await file(db, acme, { title: "Crash on save", context });
    await file(db, acme, { title: "Dark mode" });
    for (const q of [undefined, "crash"]) {
      const out = await exportFeedback(
        owner,
        exportQuerySchema.parse({ namespace: acme, format: "json", ...(q ? { q } : {}) }),
        db,
      );
      const records: { id: string; context: string | null }[] = JSON.parse(
        await new Response(out.body).text(),
      );
      expect(records.find((r) => r.id === hit)?.context).toBe(context);
    }
    const [listed] = (await list(owner, { namespace: acme, q: "crash" }, db)).feedback;
    expect(listed?.id).toBe(hit);
    expect(listed).not.toHaveProperty("context");
  });
});

describe("groups of duplicates", () => {
  const fileNew = (db: DbOrTx, title: string, item: Partial<typeof feedback.$inferInsert> = {}) =>
    file(db, acme, { title, groupedAt: null, ...item });

  rolledBack("files a report with a similar title under the open group it repeats, as a vote", async (db) => {
    await register(db, acme);
    const first = await fileNew(db, "Checkout button does nothing");
    expect(await groupReport(first, db)).toBeNull();
    const again = await fileNew(db, "checkout button does nothing on Safari", { submitterWallet: stranger });
    expect(await groupReport(again, db)).toBe(first);
    // Only a word in common, another type, or a closed group: kept apart.
    expect(await groupReport(await fileNew(db, "Checkout is slow"), db)).toBeNull();
    expect(
      await groupReport(await fileNew(db, "Checkout button does nothing", { type: "feature" }), db),
    ).toBeNull();
    const head = await getFeedback(owner, first, db);
    expect(head).toMatchObject({ groupId: null, reportCount: 2 });
    expect(head.group?.map((g) => [g.id, g.groupKind])).toEqual([[again, "suggested"]]);
    expect(await getFeedback(owner, again, db)).toMatchObject({ groupId: first, groupKind: "suggested" });
    expect((await getFeedback(owner, again, db)).history.at(-1)).toMatchObject({
      kind: "suggested",
      actor: "service",
    });
    // A report is looked at once.
    expect(await groupReport(again, db)).toBeNull();
    const grouped = await list(owner, { namespace: acme, grouped: "true" }, db);
    const row = grouped.feedback.find((f) => f.id === first);
    expect(row).toMatchObject({ reportCount: 2, groupReports: 2 });
    expect(row?.reporters?.sort()).toEqual([agent, stranger].sort());
    expect(grouped.feedback.some((f) => f.id === again)).toBe(false);
  });

  rolledBack("leaves a report merged by hand before it was looked at in its group", async (db) => {
    await register(db, acme);
    const head = await fileNew(db, "Alpha");
    const member = await fileNew(db, "Beta");
    await mergeReports(owner, mergeSchema.parse({ namespace: acme, into: head, feedbackIds: [member] }), db);
    expect(await groupReport(member, db)).toBeNull();
    expect(await getFeedback(owner, member, db)).toMatchObject({ groupId: head });
    expect(await getFeedback(owner, head, db)).toMatchObject({ groupId: null, reportCount: 2 });
    // A head with votes is only marked looked at, and keeps them.
    expect(await groupReport(head, db)).toBeNull();
    expect(await getFeedback(owner, head, db)).toMatchObject({ groupId: null, reportCount: 2 });
  });

  rolledBack("never files a report under a closed group, or under a newer report", async (db) => {
    await register(db, acme);
    const done = await fileNew(db, "Login loop after SSO", { status: "resolved", resolved: true });
    const open = await fileNew(db, "Login loop after SSO");
    expect(await groupReport(open, db)).toBeNull();
    expect(done).toBeDefined();
  });

  rolledBack("merges by hand, brings a head's members along, and unmerges", async (db) => {
    await register(db, acme);
    const a = await file(db, acme, { title: "Alpha" });
    const b = await file(db, acme, { title: "Beta" });
    const c = await file(db, acme, { title: "Gamma" });
    await mergeReports(owner, mergeSchema.parse({ namespace: acme, into: b, feedbackIds: [c] }), db);
    const merged = await mergeReports(
      owner,
      mergeSchema.parse({ namespace: acme, into: a, feedbackIds: [b] }),
      db,
    );
    expect(merged).toMatchObject({ groupId: a, reportCount: 3, merged: [b] });
    expect((await getFeedback(owner, c, db)).groupId).toBe(a);
    await unmergeReports(owner, unmergeSchema.parse({ namespace: acme, feedbackIds: [c] }), db);
    expect(await getFeedback(owner, c, db)).toMatchObject({ groupId: null, reportCount: 1 });
    expect((await getFeedback(owner, a, db)).reportCount).toBe(2);
    await expect(
      mergeReports(stranger, mergeSchema.parse({ namespace: acme, into: a, feedbackIds: [c] }), db),
    ).rejects.toMatchObject({ code: "not-owner" });
  });

  rolledBack(
    "resolves only the items a resolve names: a merged duplicate too when alsoResolve names it",
    async (db) => {
      await register(db, acme);
      const head = await file(db, acme, { title: "Alpha" });
      const member = await file(db, acme, { title: "Alpha again", submitterWallet: stranger });
      const other = await file(db, acme, { title: "Alpha once more", submitterWallet: stranger });
      await mergeReports(
        owner,
        mergeSchema.parse({ namespace: acme, into: head, feedbackIds: [member, other] }),
        db,
      );
      await resolveFeedback(owner, resolveFeedbackSchema.parse({ feedbackId: head, message: "Fixed" }), db);
      expect(await getFeedback(owner, member, db)).toMatchObject({ resolved: false, status: "open" });
      const answer = await resolveFeedback(
        owner,
        resolveFeedbackSchema.parse({ feedbackId: member, message: "Fixed too", alsoResolve: [head, other] }),
        db,
      );
      // The head was already resolved: only what was still open changes.
      expect(answer.alsoResolved).toEqual([other]);
      expect(await getFeedback(owner, other, db)).toMatchObject({
        resolved: true,
        resolveMessage: "Fixed too",
      });
      expect(await getFeedback(owner, head, db)).toMatchObject({ resolveMessage: "Fixed" });
      const theirs = await listSubmissions(stranger, statusQuerySchema.parse({ namespace: acme }), db);
      expect(theirs.feedback.map((f) => [f.id, f.resolution?.message])).toEqual([
        [other, "Fixed too"],
        [member, "Fixed too"],
      ]);
    },
  );

  rolledBack("sorts the groups by votes when asked", async (db) => {
    await register(db, acme);
    const small = await file(db, acme, { title: "Small" });
    const big = await file(db, acme, { title: "Big" });
    const newest = await file(db, acme, { title: "Newest" });
    const votes = [await file(db, acme, { title: "v1" }), await file(db, acme, { title: "v2" })];
    await mergeReports(owner, mergeSchema.parse({ namespace: acme, into: big, feedbackIds: votes }), db);
    const byVotes = await list(owner, { namespace: acme, grouped: "true", sort: "reports" }, db);
    expect(byVotes.feedback.map((f) => f.id)).toEqual([big, newest, small]);
    expect(() => listQuerySchema.parse({ namespace: acme, sort: "reports" })).toThrow(/grouped=true/);
  });
});

describe("labels", () => {
  const label = (wallet: string, input: Record<string, unknown>, db: DbOrTx) =>
    changeLabels(wallet, changeLabelsSchema.parse({ namespace: acme, ...input }), db);

  rolledBack(
    "adds and removes labels on many items at once, filters by one, and keeps the history",
    async (db) => {
      await register(db, acme);
      const [a, b] = [await file(db, acme), await file(db, acme, { labels: ["ios"] })];
      const result = await label(owner, { feedbackIds: [a, b], add: ["checkout", "ios"] }, db);
      expect(result.changed).toEqual([
        { id: a, labels: ["checkout", "ios"] },
        { id: b, labels: ["checkout", "ios"] },
      ]);
      await label(owner, { feedbackIds: [b], remove: ["ios"] }, db);
      const ids = async (l: string) =>
        (await list(owner, { namespace: acme, label: l }, db)).feedback.map((f) => f.id);
      expect(await ids("checkout")).toEqual([b, a]);
      expect(await ids("ios")).toEqual([a]);
      expect((await getFeedback(owner, b, db)).history.map((h) => h.details)).toEqual([
        { added: ["checkout"], removed: [] },
        { added: [], removed: ["ios"] },
      ]);
      // Nothing to change: left as it is.
      expect((await label(owner, { feedbackIds: [a], add: ["ios"] }, db)).unchanged).toEqual([a]);
      // The filter bar offers the labels in use, the most used first.
      expect((await countFeedback(owner, acme, db)).labels).toEqual([
        { name: "checkout", count: 2 },
        { name: "ios", count: 1 },
      ]);
    },
  );

  rolledBack("refuses bad labels naming the field, too many labels, and anyone but the owner", async (db) => {
    await register(db, acme);
    const a = await file(db, acme, { labels: Array.from({ length: 9 }, (_, i) => `l${i}`) });
    expect(() => changeLabelsSchema.parse({ namespace: acme, feedbackIds: [a], add: ["a,b"] })).toThrow(
      /comma/,
    );
    expect(() => changeLabelsSchema.parse({ namespace: acme, feedbackIds: [a] })).toThrow(
      /at least one label/,
    );
    await expect(label(owner, { feedbackIds: [a], add: ["x", "y"] }, db)).rejects.toMatchObject({
      code: "validation-failed",
      extra: { errors: [{ field: "add" }] },
    });
    await expect(label(agent, { feedbackIds: [a], add: ["x"] }, db)).rejects.toMatchObject({
      code: "not-owner",
    });
  });
});
