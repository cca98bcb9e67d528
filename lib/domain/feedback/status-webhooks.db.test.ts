import { eq } from "drizzle-orm";
import { describe, expect } from "vitest";
import type { DbOrTx } from "@/lib/db/client";
import { feedback, namespaces, payments, webhookDeliveries } from "@/lib/db/schema";
import { followUpSchema } from "@/lib/schemas/follow-up";
import { resolveFeedbackSchema } from "@/lib/schemas/resolve";
import { changeStatusSchema } from "@/lib/schemas/triage";
import type { SubscribableEvent } from "@/lib/schemas/webhook-events";
import { insertItem, insertNamespace, ref } from "@/testing/db-rows";
import { rolledBack } from "@/testing/rollback";
import { changeStatus } from "./change-status";
import { commitFollowUp } from "./follow-up";
import { resolveFeedback } from "./resolve-feedback";

// feedback.status_changed is queued in the transaction that changes the status: it commits with the
// change and is gone when the change is refused or rolled back.
const owner = "0x00000000000000000000000000000000000000a1";
const agent = "0x00000000000000000000000000000000000000a2";
const acme = ref("acme");

const register = (db: DbOrTx, events?: SubscribableEvent[]) =>
  insertNamespace(db, {
    name: acme,
    ownerWallet: owner,
    webhookUrl: "https://hooks.example/x",
    ...(events ? { webhookEvents: events } : {}),
  });
const file = (db: DbOrTx, item: Partial<typeof feedback.$inferInsert> = {}) =>
  insertItem(db, { namespace: acme, submitterWallet: agent, ...item });
const change = (db: DbOrTx, input: Record<string, unknown>) =>
  changeStatus(owner, changeStatusSchema.parse({ namespace: acme, ...input }), db);
async function queued(db: DbOrTx, type = "feedback.status_changed") {
  const rows = await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.namespace, acme));
  return rows.filter((r) => r.eventType === type).map((r) => r.payload.data as Record<string, unknown>);
}

describe("feedback.status_changed", () => {
  rolledBack("is queued once per item a triage changes, with the owner's message", async (db) => {
    await register(db);
    const [a, b, c] = [await file(db), await file(db), await file(db, { status: "needs_info" })];
    const result = await change(db, { feedbackIds: [a, b, c], status: "needs_info", message: "Which OS?" });
    const events = await queued(db);
    expect(events.map((e) => e.id).sort()).toEqual([a, b].sort());
    expect(events[0]).toEqual({
      id: events[0]!.id,
      namespace: acme,
      from: "open",
      to: "needs_info",
      message: "Which OS?",
      changedBy: owner,
      changedAt: result.changedAt,
    });
  });

  rolledBack(
    "is written in the change's transaction, so it is gone when the change rolls back",
    async (db) => {
      await register(db);
      const id = await file(db);
      await db
        .transaction(async (tx) => {
          await change(tx, { feedbackIds: [id], status: "spam" });
          expect(await queued(tx)).toHaveLength(1);
          tx.rollback();
        })
        .catch(() => {});
      expect(await queued(db)).toEqual([]);
      expect((await db.select().from(feedback).where(eq(feedback.id, id)))[0]!.status).toBe("open");
    },
  );

  rolledBack("comes with feedback.resolved on a resolve, each as chosen", async (db) => {
    await register(db);
    const id = await file(db, { status: "in_progress" });
    await resolveFeedback(owner, resolveFeedbackSchema.parse({ feedbackId: id, message: "Fixed" }), db);
    expect(await queued(db)).toEqual([expect.objectContaining({ id, from: "in_progress", to: "resolved" })]);
    expect(await queued(db, "feedback.resolved")).toHaveLength(1);
    await db
      .update(namespaces)
      .set({ webhookEvents: ["feedback.resolved"] })
      .where(eq(namespaces.name, acme));
    await change(db, { feedbackIds: [id], status: "open" });
    expect(await queued(db)).toHaveLength(1);
  });

  rolledBack("is queued when a paid follow-up reopens the item, and only if it is stored", async (db) => {
    await register(db);
    const id = await file(db, { status: "needs_info" });
    const paymentId = ref("pay");
    await db.insert(payments).values({
      id: paymentId,
      protocol: "x402",
      paymentKey: ref("key"),
      operation: "namespace_feedback_follow_up",
      status: "settled",
      payer: agent,
      amount: "10000",
      asset: "0x",
      network: "eip155:31337",
      payTo: "0x",
      expiresAt: new Date(Date.now() + 60_000),
      request: {},
    });
    const input = followUpSchema.parse({ feedbackId: id, message: "Firefox 130" });
    const ctx = {
      db,
      paymentId,
      txRef: "0xabc",
      payer: agent,
      payerContractOn: null,
      protocol: "x402",
    } as const;
    await commitFollowUp(input, ctx);
    expect(await queued(db)).toEqual([
      expect.objectContaining({
        id,
        from: "needs_info",
        to: "open",
        message: "Firefox 130",
        changedBy: agent,
      }),
    ]);
    // A second commit of the same payment is refused, and its reopening (and event) with it.
    await db.update(feedback).set({ status: "needs_info" }).where(eq(feedback.id, id));
    await expect(db.transaction(() => commitFollowUp(input, ctx))).rejects.toThrow();
    expect(await queued(db)).toHaveLength(1);
  });
});
