import { eq, sql, TransactionRollbackError } from "drizzle-orm";
import { getAddress } from "viem";
import { describe, expect } from "vitest";
import type { Who } from "@/lib/auth/identity";
import { may, type Permission } from "@/lib/auth/roles";
import type { DbOrTx } from "@/lib/db/client";
import { namespaces, webhookDeliveries } from "@/lib/db/schema";
import { changeLabels } from "@/lib/domain/feedback/change-labels";
import { changeStatus } from "@/lib/domain/feedback/change-status";
import { countFeedback } from "@/lib/domain/feedback/count-feedback";
import { exportFeedback } from "@/lib/domain/feedback/export-feedback";
import { getFeedback } from "@/lib/domain/feedback/get-feedback";
import { mergeReports, unmergeReports } from "@/lib/domain/feedback/groups";
import { listKnownIssues, updateKnownIssues } from "@/lib/domain/feedback/known-issues";
import { listFeedback } from "@/lib/domain/feedback/list-feedback";
import { listSubmissions } from "@/lib/domain/feedback/list-submissions";
import { resolveFeedback } from "@/lib/domain/feedback/resolve-feedback";
import { getInsights } from "@/lib/domain/insights/get-insights";
import { namespaceAccess } from "@/lib/domain/namespace/namespace-access";
import { getWebhook } from "@/lib/domain/webhooks/get-webhook";
import { listWebhookDeliveries } from "@/lib/domain/webhooks/list-webhook-deliveries";
import { rotateWebhookSecret } from "@/lib/domain/webhooks/rotate-webhook-secret";
import { updateWebhook } from "@/lib/domain/webhooks/update-webhook";
import { insightsQuerySchema } from "@/lib/schemas/insights";
import { knownIssuesQuerySchema, updateKnownIssuesSchema } from "@/lib/schemas/known-issues";
import { exportQuerySchema, listQuerySchema, statusQuerySchema } from "@/lib/schemas/list";
import { addMemberSchema, proposeTransferSchema, removeMemberSchema } from "@/lib/schemas/members";
import { resolveFeedbackSchema } from "@/lib/schemas/resolve";
import { changeLabelsSchema, changeStatusSchema, mergeSchema, unmergeSchema } from "@/lib/schemas/triage";
import { updateWebhookSchema, webhookDeliveriesQuerySchema } from "@/lib/schemas/webhook";
import { type WebhookEventType, webhookEnvelopeSchema } from "@/lib/schemas/webhook-events";
import { insertItem, insertNamespace, ref } from "@/testing/db-rows";
import { rolledBack } from "@/testing/rollback";
import { acceptTransfer } from "./accept-transfer";
import { addMember } from "./add-member";
import { cancelTransfer } from "./cancel-transfer";
import { listMembers } from "./list-members";
import { proposeTransfer } from "./propose-transfer";
import { removeMember } from "./remove-member";

// A namespace's team on the real database: what each role may do through the domain verbs, a removal and a
// transfer taking effect on the very next call, and a reporter that sees none of the team.
// Checksummed, as members are stored and answered.
const wallet = (n: number) => getAddress(`0x${n.toString(16).padStart(40, "0")}`);
const OWNER = wallet(0xf1);
const [ADMIN, TRIAGER, VIEWER, STRANGER, REPORTER, NEXT] = [0xa1, 0xa2, 0xa3, 0xa4, 0xa5, 0xa6].map(wallet);
type Actor = "owner" | "admin" | "triager" | "viewer" | "stranger";
const _WHO: Record<Actor, string> = {
  owner: OWNER,
  admin: ADMIN!,
  triager: TRIAGER!,
  viewer: VIEWER!,
  stranger: STRANGER!,
};

async function team(db: DbOrTx) {
  const ns = ref("team").replaceAll("_", "-").slice(0, 30);
  await insertNamespace(db, { name: ns, ownerWallet: OWNER, webhookUrl: "https://hooks.example.com/team" });
  const item = await insertItem(db, { namespace: ns, submitterWallet: REPORTER! });
  const add = (w: string, role: string, by: Who = OWNER) =>
    addMember(by, addMemberSchema.parse({ namespace: ns, wallet: w, role }), db);
  await add(ADMIN!, "admin");
  await add(TRIAGER!, "triager", ADMIN!);
  await add(VIEWER!, "viewer", ADMIN!);
  return { ns, item };
}

/** Runs `fn` in a savepoint that is always rolled back, answering what it answered. */
async function inSavepoint<T>(db: DbOrTx, fn: (tx: DbOrTx) => Promise<T>): Promise<T> {
  let result: T | undefined;
  try {
    await db.transaction(async (tx) => {
      result = await fn(tx);
      tx.rollback();
    });
  } catch (error) {
    if (!(error instanceof TransactionRollbackError)) throw error;
  }
  return result as T;
}

/** What a verb answers an actor: "ok", or the refusal's code. */
async function outcome(call: () => Promise<unknown>): Promise<string> {
  try {
    await call();
    return "ok";
  } catch (error) {
    return (error as { code?: string }).code ?? String(error);
  }
}

describe("what each role may do", () => {
  rolledBack(
    "every owner call, by role: owner, admin, triager, viewer, removed member, proposed owner, reporter, stranger",
    async (db) => {
      const { ns, item } = await team(db);
      const [other, spare] = [
        await insertItem(db, { namespace: ns, submitterWallet: REPORTER! }),
        await insertItem(db, {
          namespace: ns,
          submitterWallet: REPORTER!,
          groupId: item,
          groupKind: "merged",
        }),
      ];
      const removed = wallet(0xe1);
      await addMember(OWNER, addMemberSchema.parse({ namespace: ns, wallet: removed, role: "admin" }), db);
      await removeMember(OWNER, removeMemberSchema.parse({ namespace: ns, wallet: removed }), db);
      // Targets of the removals: others than the actors, since any member may remove itself (leave).
      await addMember(
        OWNER,
        addMemberSchema.parse({ namespace: ns, wallet: wallet(0xe3), role: "triager" }),
        db,
      );
      await addMember(
        OWNER,
        addMemberSchema.parse({ namespace: ns, wallet: wallet(0xe4), role: "admin" }),
        db,
      );
      const proposed = wallet(0xe2);
      await proposeTransfer(OWNER, proposeTransferSchema.parse({ namespace: ns, to: proposed }), db);
      const ACTORS = {
        owner: OWNER,
        admin: ADMIN!,
        triager: TRIAGER!,
        viewer: VIEWER!,
        "removed member": removed,
        "proposed owner": proposed,
        reporter: REPORTER!,
        stranger: STRANGER!,
      } as const;
      type Actor = keyof typeof ACTORS;
      // Each call and what it needs; each runs in a savepoint rolled back, so every actor meets the same namespace.
      const q = { namespace: ns };
      const calls: Record<string, [Permission, (who: string, tx: DbOrTx) => Promise<unknown>]> = {
        list: ["read", (w, tx) => listFeedback(w, listQuerySchema.parse(q), tx)],
        export: ["read", (w, tx) => exportFeedback(w, exportQuerySchema.parse({ ...q, format: "json" }), tx)],
        insights: ["read", (w, tx) => getInsights(w, insightsQuerySchema.parse(q), tx)],
        counts: ["read", (w, tx) => countFeedback(w, ns, tx)],
        "known issues preview": [
          "read",
          (w, tx) => listKnownIssues(w, knownIssuesQuerySchema.parse({ ...q, view: "owner" }), tx),
        ],
        members: ["read", (w, tx) => listMembers(w, ns, tx)],
        status: [
          "triage",
          (w, tx) =>
            changeStatus(
              w,
              changeStatusSchema.parse({ ...q, feedbackIds: [item], status: "acknowledged" }),
              tx,
            ),
        ],
        labels: [
          "triage",
          (w, tx) => changeLabels(w, changeLabelsSchema.parse({ ...q, feedbackIds: [item], add: ["x"] }), tx),
        ],
        merge: [
          "triage",
          (w, tx) => mergeReports(w, mergeSchema.parse({ ...q, into: item, feedbackIds: [other] }), tx),
        ],
        unmerge: [
          "triage",
          (w, tx) => unmergeReports(w, unmergeSchema.parse({ ...q, feedbackIds: [spare] }), tx),
        ],
        "hide a known issue": [
          "triage",
          (w, tx) => updateKnownIssues(w, updateKnownIssuesSchema.parse({ ...q, hide: [item] }), tx),
        ],
        "resolve without a reward": [
          "triage",
          (w, tx) => resolveFeedback(w, resolveFeedbackSchema.parse({ feedbackId: item }), tx),
        ],
        publish: [
          "publish",
          (w, tx) => updateKnownIssues(w, updateKnownIssuesSchema.parse({ ...q, published: true }), tx),
        ],
        "webhook settings": ["webhook", (w, tx) => getWebhook(w, ns, tx)],
        "webhook update": [
          "webhook",
          (w, tx) => updateWebhook(w, updateWebhookSchema.parse({ ...q, format: "slack" }), tx),
        ],
        "webhook rotate": ["webhook", (w, tx) => rotateWebhookSecret(w, ns, tx)],
        "webhook deliveries": [
          "webhook",
          (w, tx) => listWebhookDeliveries(w, webhookDeliveriesQuerySchema.parse(q), tx),
        ],
        "add a viewer": [
          "members",
          (w, tx) => addMember(w, addMemberSchema.parse({ ...q, wallet: wallet(0xb0), role: "viewer" }), tx),
        ],
        "remove a triager": [
          "members",
          (w, tx) => removeMember(w, removeMemberSchema.parse({ ...q, wallet: wallet(0xe3) }), tx),
        ],
        "add an admin": [
          "ownership",
          (w, tx) => addMember(w, addMemberSchema.parse({ ...q, wallet: wallet(0xb1), role: "admin" }), tx),
        ],
        "remove an admin": [
          "ownership",
          (w, tx) => removeMember(w, removeMemberSchema.parse({ ...q, wallet: wallet(0xe4) }), tx),
        ],
        "propose a transfer": [
          "ownership",
          (w, tx) => proposeTransfer(w, proposeTransferSchema.parse({ ...q, to: NEXT }), tx),
        ],
        "cancel the transfer": ["ownership", (w, tx) => cancelTransfer(w, ns, tx)],
      };
      const seen: Record<string, Record<Actor, string>> = {};
      const expected: Record<string, Record<Actor, string>> = {};
      for (const [name, [permission, call]] of Object.entries(calls)) {
        seen[name] = {} as Record<Actor, string>;
        expected[name] = {} as Record<Actor, string>;
        for (const [actor, address] of Object.entries(ACTORS) as [Actor, string][]) {
          seen[name][actor] = await inSavepoint(db, (tx) => outcome(() => call(address, tx)));
          const role =
            actor === "owner" ? "owner" : (["admin", "triager", "viewer"] as const).find((r) => r === actor);
          expected[name][actor] =
            role === undefined ? "not-owner" : may(role, permission) ? "ok" : "role-forbidden";
        }
      }
      expect(seen).toEqual(expected);
    },
  );

  rolledBack(
    "a member reads the team's view of an item; the reporter its own; a stranger nothing",
    async (db) => {
      const { ns, item } = await team(db);
      await changeLabels(
        OWNER,
        changeLabelsSchema.parse({ namespace: ns, feedbackIds: [item], add: ["vip"] }),
        db,
      );
      for (const member of [ADMIN!, TRIAGER!, VIEWER!]) {
        expect((await getFeedback(member, item, db)).labels).toEqual(["vip"]);
      }
      expect(await getFeedback(REPORTER!, item, db)).not.toHaveProperty("labels");
      expect(await outcome(() => getFeedback(STRANGER!, item, db))).toBe("forbidden");
      expect(await namespaceAccess(TRIAGER!, ns, db)).toEqual({
        namespace: ns,
        access: "member",
        role: "triager",
      });
      expect(await namespaceAccess(STRANGER!, ns, db)).toEqual({ namespace: ns, access: "not-yours" });
    },
  );

  rolledBack("a reporter never reads a member's wallet: the owner stands for the team", async (db) => {
    const { item } = await team(db);
    await resolveFeedback(TRIAGER!, resolveFeedbackSchema.parse({ feedbackId: item, message: "Fixed" }), db);
    const [mine] = (await listSubmissions(REPORTER!, statusQuerySchema.parse({}), db)).feedback;
    const asRecord = await getFeedback(REPORTER!, item, db);
    for (const seen of [mine!, asRecord]) {
      expect(seen.resolvedBy).toBe(OWNER);
      expect(seen.history.map((h) => h.actor)).toEqual([OWNER]);
      expect(JSON.stringify(seen).toLowerCase()).not.toContain(TRIAGER!.toLowerCase());
    }
    // The owner's own view names who did it.
    expect((await getFeedback(OWNER, item, db)).resolvedBy?.toLowerCase()).toBe(TRIAGER!.toLowerCase());
  });
});

describe("the team changes", () => {
  rolledBack(
    "a member is listed once; roles change; admins are the owner's; the owner is no member",
    async (db) => {
      const { ns } = await team(db);
      await addMember(ADMIN!, addMemberSchema.parse({ namespace: ns, wallet: VIEWER, role: "triager" }), db);
      const listed = await listMembers(VIEWER!, ns, db);
      expect(listed.members.filter((m) => m.wallet === VIEWER)).toEqual([
        expect.objectContaining({ role: "triager", addedBy: ADMIN }),
      ]);
      expect(listed).toMatchObject({ owner: OWNER, pendingTransfer: null });
      // An admin may neither demote another admin nor remove one.
      const other = wallet(0xc1);
      await addMember(OWNER, addMemberSchema.parse({ namespace: ns, wallet: other, role: "admin" }), db);
      expect(
        await outcome(() =>
          addMember(ADMIN!, addMemberSchema.parse({ namespace: ns, wallet: other, role: "viewer" }), db),
        ),
      ).toBe("role-forbidden");
      expect(
        await outcome(() =>
          removeMember(ADMIN!, removeMemberSchema.parse({ namespace: ns, wallet: other }), db),
        ),
      ).toBe("role-forbidden");
      for (const call of [
        () => addMember(OWNER, addMemberSchema.parse({ namespace: ns, wallet: OWNER, role: "admin" }), db),
        () => removeMember(ADMIN!, removeMemberSchema.parse({ namespace: ns, wallet: OWNER }), db),
      ]) {
        expect(await outcome(call)).toBe("validation-failed");
      }
      const events = await db
        .select({ type: webhookDeliveries.eventType })
        .from(webhookDeliveries)
        .where(eq(webhookDeliveries.namespace, ns));
      expect(events.map((e) => e.type).filter((t) => t === "member.added")).toHaveLength(5);
    },
  );

  rolledBack("a removed member is refused on its very next call; a member may leave", async (db) => {
    const { ns } = await team(db);
    const list = (who: string) =>
      outcome(() => listFeedback(who, listQuerySchema.parse({ namespace: ns }), db));
    expect(await list(TRIAGER!)).toBe("ok");
    await removeMember(ADMIN!, removeMemberSchema.parse({ namespace: ns, wallet: TRIAGER }), db);
    expect(await list(TRIAGER!)).toBe("not-owner");
    await removeMember(VIEWER!, removeMemberSchema.parse({ namespace: ns, wallet: VIEWER }), db);
    expect(await list(VIEWER!)).toBe("not-owner");
    expect(
      await outcome(() =>
        removeMember(OWNER, removeMemberSchema.parse({ namespace: ns, wallet: VIEWER }), db),
      ),
    ).toBe("not-found");
  });

  rolledBack(
    "a transfer: nothing before it is accepted, then the new owner owns it and the old one is an admin",
    async (db) => {
      const { ns } = await team(db);
      const stranger = wallet(0xd1);
      await proposeTransfer(OWNER, proposeTransferSchema.parse({ namespace: ns, to: stranger }), db);
      // A new proposal replaces the pending one: the first wallet can no longer accept.
      const proposed = await proposeTransfer(
        OWNER,
        proposeTransferSchema.parse({ namespace: ns, to: NEXT }),
        db,
      );
      expect((await listMembers(ADMIN!, ns, db)).pendingTransfer).toEqual({
        to: NEXT,
        proposedAt: proposed.proposedAt,
        expiresAt: proposed.expiresAt,
      });
      expect(await outcome(() => listFeedback(NEXT!, listQuerySchema.parse({ namespace: ns }), db))).toBe(
        "not-owner",
      );
      for (const who of [stranger, ADMIN!, OWNER]) {
        expect(await outcome(() => acceptTransfer(who, ns, db))).toBe("transfer-not-pending");
      }
      expect(await acceptTransfer(NEXT!, ns, db)).toEqual({ namespace: ns, ownerWallet: NEXT });
      expect(await outcome(() => acceptTransfer(NEXT!, ns, db))).toBe("transfer-not-pending");
      const [row] = await db.select().from(namespaces).where(eq(namespaces.name, ns));
      expect(row).toMatchObject({ ownerWallet: NEXT, transferTo: null, transferProposedAt: null });
      const members = await listMembers(NEXT!, ns, db);
      expect(members.members.find((m) => m.wallet.toLowerCase() === OWNER.toLowerCase())?.role).toBe("admin");
      expect(
        await outcome(() =>
          proposeTransfer(OWNER, proposeTransferSchema.parse({ namespace: ns, to: ADMIN }), db),
        ),
      ).toBe("role-forbidden");
      await removeMember(NEXT!, removeMemberSchema.parse({ namespace: ns, wallet: OWNER }), db);
      expect(await outcome(() => listMembers(OWNER, ns, db))).toBe("not-owner");
      const queued = await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.namespace, ns));
      expect(queued.map((t) => t.eventType)).toEqual(
        expect.arrayContaining(["namespace.transfer_proposed", "namespace.transferred", "member.removed"]),
      );
      // Each is the body the OpenAPI document publishes for it.
      for (const delivery of queued) {
        const type = delivery.eventType as WebhookEventType;
        expect(webhookEnvelopeSchema(type).safeParse(delivery.payload).error?.issues ?? [], type).toEqual([]);
      }
    },
  );

  rolledBack("a proposal lapses after 7 days, and a cancelled one cannot be accepted", async (db) => {
    const { ns } = await team(db);
    await proposeTransfer(OWNER, proposeTransferSchema.parse({ namespace: ns, to: NEXT }), db);
    await db
      .update(namespaces)
      .set({ transferProposedAt: sql`now() - interval '7 days 1 minute'` })
      .where(eq(namespaces.name, ns));
    expect((await listMembers(OWNER, ns, db)).pendingTransfer).toBeNull();
    expect(await outcome(() => acceptTransfer(NEXT!, ns, db))).toBe("transfer-not-pending");
    await proposeTransfer(OWNER, proposeTransferSchema.parse({ namespace: ns, to: NEXT }), db);
    expect(await cancelTransfer(OWNER, ns, db)).toEqual({ namespace: ns, cancelled: true });
    expect(await cancelTransfer(OWNER, ns, db)).toEqual({ namespace: ns, cancelled: false });
    expect(await outcome(() => acceptTransfer(NEXT!, ns, db))).toBe("transfer-not-pending");
  });
});
