import { eq } from "drizzle-orm";
import { describe, expect } from "vitest";
import type { DbOrTx } from "@/lib/db/client";
import { webhookDeliveries } from "@/lib/db/schema";
import { parseInput } from "@/lib/http/validate";
import { resendDeliverySchema, updateWebhookSchema } from "@/lib/schemas/webhook";
import { enqueueWebhook } from "@/lib/webhooks/outbox";
import { insertNamespace, ref } from "@/testing/db-rows";
import { rolledBack } from "@/testing/rollback";
import { listWebhookDeliveries } from "./list-webhook-deliveries";
import { resendWebhookDelivery } from "./resend-webhook-delivery";
import { updateWebhook } from "./update-webhook";

const owner = "0x00000000000000000000000000000000000000a1";
const stranger = "0x00000000000000000000000000000000000000a3";
const acme = ref("acme");

const register = (db: DbOrTx) =>
  insertNamespace(db, {
    name: acme,
    ownerWallet: owner,
    webhookUrl: "https://hooks.example/x",
    webhookSecret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
  });
const update = (wallet: string, body: Record<string, unknown>, db: DbOrTx) =>
  updateWebhook(wallet, parseInput(updateWebhookSchema, { namespace: acme, ...body }), db);
const resend = (id: string, db: DbOrTx, wallet = owner) =>
  resendWebhookDelivery(wallet, resendDeliverySchema.parse({ namespace: acme, id }), db);
/** A delivery of `acme` in `status`. */
async function delivery(db: DbOrTx, status: "pending" | "delivered" | "failed") {
  const id = (await enqueueWebhook(db, acme, "webhook.test", { namespace: acme, message: "hi" }))!;
  await db.update(webhookDeliveries).set({ status, attempts: 11 }).where(eq(webhookDeliveries.id, id));
  return id;
}

describe("webhook settings", () => {
  rolledBack("change the format, events and digest; what a change leaves out stays", async (db) => {
    await register(db);
    const set = await update(owner, { format: "discord", events: ["reward.paid", "feedback.created"] }, db);
    expect(set).toMatchObject({
      url: "https://hooks.example/x",
      format: "discord",
      // Stored once each, in the published order.
      events: ["feedback.created", "reward.paid"],
      digest: "off",
    });
    const next = await update(owner, { digest: "daily", events: [] }, db);
    expect(next).toMatchObject({ format: "discord", events: [], digest: "daily" });
    expect((await update(owner, { url: null }, db)).url).toBeNull();
    expect((await update(owner, {}, db)).format).toBe("discord");
  });

  rolledBack("refuse bad input with a 400 naming the field, and anyone but the owner", async (db) => {
    await register(db);
    const field = (body: Record<string, unknown>) => {
      try {
        parseInput(updateWebhookSchema, { namespace: acme, ...body });
      } catch (error) {
        return (error as { status: number; extra: { errors: { field: string }[] } }).extra.errors.map(
          (e) => e.field,
        );
      }
      return [];
    };
    expect(field({ format: "teams" })).toEqual(["format"]);
    expect(field({ events: ["feedback.created", "webhook.test"] })).toEqual(["events.1"]);
    expect(field({ events: "feedback.created" })).toEqual(["events"]);
    expect(field({ digest: "weekly" })).toEqual(["digest"]);
    expect(field({ url: "ftp://x.example" })).toEqual(["url"]);
    await expect(update(stranger, { format: "slack" }, db)).rejects.toMatchObject({ code: "not-owner" });
    await expect(update(owner, { url: "http://10.0.0.1/x" }, db)).rejects.toMatchObject({
      code: "validation-failed",
      extra: { errors: [{ field: "url" }] },
    });
  });
});

describe("re-sending a delivery", () => {
  rolledBack("queues a copy of a failed delivery, linked both ways, with the same body", async (db) => {
    await register(db);
    const failed = await delivery(db, "failed");
    const copy = await resend(failed, db);
    expect(copy).toMatchObject({
      namespace: acme,
      resentFrom: failed,
      eventType: "webhook.test",
      status: "pending",
    });
    expect(copy.id).not.toBe(failed);
    const rows = await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.namespace, acme));
    const [original, queued] = [rows.find((r) => r.id === failed)!, rows.find((r) => r.id === copy.id)!];
    expect(queued).toMatchObject({ status: "pending", attempts: 0, resentFrom: failed, resentAs: null });
    expect(queued.payload).toEqual(original.payload);
    expect(original).toMatchObject({ status: "failed", resentAs: copy.id });
    const log = await listWebhookDeliveries(owner, { namespace: acme, limit: 20 }, db);
    expect(log.deliveries.find((d) => d.id === failed)).toMatchObject({
      resentAs: copy.id,
      resentFrom: null,
    });
    expect(log.deliveries.find((d) => d.id === copy.id)).toMatchObject({
      resentFrom: failed,
      resentAs: null,
    });
  });

  rolledBack("two re-sends at once queue one copy; the other is a 409", async (db) => {
    await register(db);
    const failed = await delivery(db, "failed");
    const outcomes = await Promise.allSettled([resend(failed, db), resend(failed, db)]);
    expect(outcomes.map((o) => o.status).sort()).toEqual(["fulfilled", "rejected"]);
    const refused = outcomes.find((o) => o.status === "rejected") as PromiseRejectedResult;
    expect(refused.reason).toMatchObject({ code: "delivery-not-resendable", status: 409 });
    const copies = await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.resentFrom, failed));
    expect(copies).toHaveLength(1);
    await expect(resend(failed, db)).rejects.toMatchObject({
      detail: expect.stringContaining("already re-sent"),
    });
  });

  rolledBack("re-sends a delivered one too, but not one still pending or unknown", async (db) => {
    await register(db);
    expect((await resend(await delivery(db, "delivered"), db)).status).toBe("pending");
    await expect(resend(await delivery(db, "pending"), db)).rejects.toMatchObject({
      code: "delivery-not-resendable",
      detail: expect.stringContaining("still being sent"),
    });
    await expect(resend("msg_nothing", db)).rejects.toMatchObject({
      code: "delivery-not-found",
      extra: { errors: [{ field: "id" }] },
    });
    await expect(resend(await delivery(db, "failed"), db, stranger)).rejects.toMatchObject({
      code: "not-owner",
    });
  });

  rolledBack("refuses without a webhook URL", async (db) => {
    await register(db);
    const failed = await delivery(db, "failed");
    await update(owner, { url: null }, db);
    await expect(resend(failed, db)).rejects.toMatchObject({ code: "webhook-not-configured" });
  });
});
