import { and, eq, sql } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import { describe, expect } from "vitest";
import type { DbOrTx } from "@/lib/db/client";
import { namespaces, webhookDeliveries } from "@/lib/db/schema";
import { resolveFeedback } from "@/lib/domain/feedback/resolve-feedback";
import { listWebhookDeliveries } from "@/lib/domain/webhooks/list-webhook-deliveries";
import { resendWebhookDelivery } from "@/lib/domain/webhooks/resend-webhook-delivery";
import { resolveFeedbackSchema } from "@/lib/schemas/resolve";
import type { WebhookFormat } from "@/lib/schemas/webhook";
import { insertItem, insertNamespace, ref } from "@/testing/db-rows";
import { rolledBack } from "@/testing/rollback";
import { enqueueWebhook, newActionId, releaseHeldAction } from "./outbox";
import { deliverDueWebhooks } from "./worker";

// Chat formats send the events of one owner action as one message (one delivery, one log row); the
// standard format keeps one signed delivery per event.

const owner = "0x00000000000000000000000000000000000000a1";
const secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
const acme = ref("acme");
const register = (db: DbOrTx, format: WebhookFormat) =>
  insertNamespace(db, {
    name: acme,
    ownerWallet: owner,
    webhookUrl: "https://hooks.example/x",
    webhookSecret: secret,
    webhookFormat: format,
  });
async function resolveThree(db: DbOrTx) {
  const ids = [await insertItem(db, { namespace: acme }), await insertItem(db, { namespace: acme })];
  ids.push(await insertItem(db, { namespace: acme, status: "in_progress" }));
  const input = { feedbackId: ids[0], alsoResolve: ids.slice(1), message: "Fixed in 2.3" };
  await resolveFeedback(owner, resolveFeedbackSchema.parse(input), db);
  return ids;
}
const rows = (db: DbOrTx) => db.select().from(webhookDeliveries).where(eq(webhookDeliveries.namespace, acme));
/**
 * Rows queued in this transaction, due now, as a later pass would find them: the column keeps
 * milliseconds, so it can round the transaction's now() up past itself. A held row stays held.
 */
const dueNow = (db: DbOrTx) =>
  db
    .update(webhookDeliveries)
    .set({ nextAttemptAt: sql`now() - interval '1 millisecond'` })
    .where(
      and(
        eq(webhookDeliveries.namespace, acme),
        sql`${webhookDeliveries.nextAttemptAt} <= now() + interval '1 millisecond'`,
      ),
    );
/** A worker pass whose receiver answers 200 "ok", recording what was posted. */
function receiver() {
  const sent: { body: string; headers: Record<string, string> }[] = [];
  const pass = async (db: DbOrTx) => {
    await dueNow(db);
    return deliverDueWebhooks({
      db,
      namespace: acme,
      send: async (_url, body, headers) => {
        sent.push({ body, headers });
        return { ok: true, statusCode: 200, error: null, body: `ok ${secret}` };
      },
    });
  };
  return { sent, pass };
}

describe("chat formats: one message per owner action", () => {
  rolledBack("a resolve of three is one delivery, one message, one log row listing them", async (db) => {
    await register(db, "slack");
    const ids = await resolveThree(db);
    const queued = await rows(db);
    expect(queued).toHaveLength(6);
    const [lead, ...more] = [...queued].sort(
      (a, b) => Number(a.status === "folded") - Number(b.status === "folded"),
    );
    expect(lead).toMatchObject({ status: "pending", foldedInto: null });
    expect(more.every((r) => r.status === "folded" && r.foldedInto === lead!.id)).toBe(true);
    expect(new Set(queued.map((r) => r.actionId)).size).toBe(1);

    const { sent, pass } = receiver();
    expect(await pass(db)).toMatchObject({ delivered: 1, pending: 0 });
    expect(sent).toHaveLength(1);
    const message = JSON.parse(sent[0]!.body);
    expect(message.text).toBe(`✅ 3 items resolved in ${acme}`);
    for (const id of ids) expect(sent[0]!.body).toContain(`item=${id}|Item ${id}`);

    const log = await listWebhookDeliveries(owner, { namespace: acme, limit: 20 }, db);
    expect(log.count).toBe(1);
    expect(log.deliveries[0]).toMatchObject({
      id: lead!.id,
      status: "delivered",
      sentBody: sent[0]!.body,
      // The receiver's answer, with the secret it echoed blanked.
      lastResponseExcerpt: "ok [redacted]",
    });
    expect(log.deliveries[0]!.items.map((i) => i.id)).toEqual([...ids].sort());
    expect(log.deliveries[0]!.items[0]).toMatchObject({
      title: `Item ${[...ids].sort()[0]}`,
      url: `http://localhost:3000/dashboard/${acme}?status=all&item=${[...ids].sort()[0]}`,
      events: ["feedback.status_changed", "feedback.resolved"],
    });
  });

  rolledBack("the standard format keeps a signed delivery per event", async (db) => {
    await register(db, "standard");
    await resolveThree(db);
    const queued = await rows(db);
    expect(queued.map((r) => r.status)).toEqual(Array(6).fill("pending"));
    expect(queued.every((r) => r.foldedInto === null)).toBe(true);
    const { sent, pass } = receiver();
    while ((await pass(db)).delivered > 0);
    expect(sent).toHaveLength(6);
    const types = sent.map((s) => (new Webhook(secret).verify(s.body, s.headers) as { type: string }).type);
    expect(types.sort()).toEqual([
      ...Array(3).fill("feedback.resolved"),
      ...Array(3).fill("feedback.status_changed"),
    ]);
  });

  rolledBack(
    "a rewarded resolve's message waits for the payment, which joins it and sends it",
    async (db) => {
      await register(db, "discord");
      const id = await insertItem(db, { namespace: acme });
      const action = newActionId();
      const at = new Date().toISOString();
      const resolved = {
        id,
        namespace: acme,
        resolvedAt: at,
        resolvedBy: owner,
        message: null,
        rewardAmount: "0.5",
      };
      const lead = await enqueueWebhook(db, acme, "feedback.resolved", resolved, { action, holdSeconds: 30 });
      const { sent, pass } = receiver();
      expect(await pass(db)).toMatchObject({ delivered: 0 });
      const paid = { id, namespace: acme, amount: "0.5", recipient: owner, txHash: `0x${"ab".repeat(32)}` };
      await enqueueWebhook(db, acme, "reward.paid", paid, { action: action, release: true });
      expect(await pass(db)).toMatchObject({ delivered: 1 });
      expect(JSON.parse(sent[0]!.body).embeds[0].fields).toContainEqual({
        name: "Reward paid",
        value: "0.5 USD to 0x0000…00a1",
        inline: true,
      });
      expect((await rows(db)).find((r) => r.eventType === "reward.paid")).toMatchObject({ foldedInto: lead });
    },
  );

  rolledBack("a refunded reward sends the held message at once, without waiting out the hold", async (db) => {
    await register(db, "slack");
    const action = newActionId();
    const at = new Date().toISOString();
    const data = {
      id: "fb_x",
      namespace: acme,
      resolvedAt: at,
      resolvedBy: owner,
      message: null,
      rewardAmount: "0.5",
    };
    await enqueueWebhook(db, acme, "feedback.resolved", data, { action, holdSeconds: 30 });
    const { sent, pass } = receiver();
    expect(await pass(db)).toMatchObject({ delivered: 0 });
    await releaseHeldAction(db, acme, action);
    expect(await pass(db)).toMatchObject({ delivered: 1 });
    expect(JSON.parse(sent[0]!.body).text).toBe(`✅ Resolved in ${acme}: fb_x`);
  });

  rolledBack("an event of an action whose message is already being sent gets its own", async (db) => {
    await register(db, "slack");
    const action = newActionId();
    const test = { namespace: acme, message: "hi" };
    const first = await enqueueWebhook(db, acme, "webhook.test", test, { action });
    await db
      .update(webhookDeliveries)
      .set({ lockedUntil: sql`now() + interval '60 seconds'` })
      .where(eq(webhookDeliveries.id, first!));
    const second = await enqueueWebhook(db, acme, "webhook.test", test, { action });
    expect((await rows(db)).find((r) => r.id === second)).toMatchObject({
      status: "pending",
      foldedInto: null,
    });
  });

  rolledBack("a format changed to standard sends the folded events on their own", async (db) => {
    await register(db, "slack");
    await resolveThree(db);
    await db.update(namespaces).set({ webhookFormat: "standard" }).where(eq(namespaces.name, acme));
    const { sent, pass } = receiver();
    while ((await pass(db)).delivered > 0);
    expect(sent).toHaveLength(6);
    expect(sent.every((s) => new Webhook(secret).verify(s.body, s.headers))).toBe(true);
    expect((await rows(db)).every((r) => r.status === "delivered")).toBe(true);
  });

  rolledBack(
    "a re-send copies the whole message; an event folded into one is not re-sent alone",
    async (db) => {
      await register(db, "slack");
      await resolveThree(db);
      const { sent, pass } = receiver();
      await pass(db);
      const [lead] = (await listWebhookDeliveries(owner, { namespace: acme, limit: 20 }, db)).deliveries;
      const copy = await resendWebhookDelivery(owner, { namespace: acme, id: lead!.id }, db);
      const copies = await db
        .select()
        .from(webhookDeliveries)
        .where(and(eq(webhookDeliveries.foldedInto, copy.id), eq(webhookDeliveries.status, "folded")));
      expect(copies).toHaveLength(5);
      expect(await pass(db)).toMatchObject({ delivered: 1 });
      expect(JSON.parse(sent[1]!.body)).toEqual(JSON.parse(sent[0]!.body));
      const member = (await rows(db)).find((r) => r.foldedInto === lead!.id)!;
      await expect(
        resendWebhookDelivery(owner, { namespace: acme, id: member.id }, db),
      ).rejects.toMatchObject({
        code: "delivery-not-resendable",
        detail: expect.stringContaining(`sent in the message of "${lead!.id}"`),
      });
    },
  );
});
