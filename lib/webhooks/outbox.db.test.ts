import { eq } from "drizzle-orm";
import { describe, expect } from "vitest";
import type { DbOrTx } from "@/lib/db/client";
import { webhookDeliveries } from "@/lib/db/schema";
import type { SubscribableEvent } from "@/lib/schemas/webhook-events";
import { insertNamespace, ref } from "@/testing/db-rows";
import { rolledBack } from "@/testing/rollback";
import { enqueueWebhook, enqueueWebhooks } from "./outbox";

const acme = ref("acme");

const register = (db: DbOrTx, events?: SubscribableEvent[], url: string | null = "https://hooks.example/x") =>
  insertNamespace(db, {
    name: acme,
    ownerWallet: "0x00000000000000000000000000000000000000a1",
    webhookUrl: url,
    ...(events ? { webhookEvents: events } : {}),
  });
const queued = async (db: DbOrTx) =>
  (await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.namespace, acme))).map(
    (r) => r.eventType,
  );
const resolved = (id: string) => ({
  id,
  namespace: acme,
  resolvedAt: new Date().toISOString(),
  resolvedBy: "0x00000000000000000000000000000000000000a1",
  message: null,
  rewardAmount: null,
});
const created = {
  id: "fb_1",
  namespace: acme,
  type: "bug" as const,
  title: "Crash",
  severity: null,
  createdAt: new Date().toISOString(),
};
const test = { namespace: acme, message: "hi" };

describe("the outbox queues only the events a namespace chose", () => {
  rolledBack("a new namespace gets every event", async (db) => {
    await register(db);
    expect(await enqueueWebhook(db, acme, "feedback.created", created)).toMatch(/^msg_/);
    expect(await enqueueWebhook(db, acme, "feedback.resolved", resolved("fb_1"))).toMatch(/^msg_/);
    expect(await queued(db)).toEqual(["feedback.created", "feedback.resolved"]);
  });

  rolledBack("an event not chosen is never stored; a test always is", async (db) => {
    await register(db, ["feedback.resolved"]);
    expect(await enqueueWebhook(db, acme, "feedback.created", created)).toBeNull();
    expect(await enqueueWebhook(db, acme, "feedback.resolved", resolved("fb_1"))).toMatch(/^msg_/);
    expect(await enqueueWebhook(db, acme, "webhook.test", test)).toMatch(/^msg_/);
    expect(await queued(db)).toEqual(["feedback.resolved", "webhook.test"]);
  });

  rolledBack("an empty choice queues no event as it happens", async (db) => {
    await register(db, []);
    expect(await enqueueWebhook(db, acme, "feedback.created", created)).toBeNull();
    expect(await enqueueWebhooks(db, acme, "feedback.resolved", [resolved("fb_1")])).toEqual([]);
    expect(await queued(db)).toEqual([]);
  });

  rolledBack("a batch is filtered the same way, in one statement", async (db) => {
    await register(db, ["feedback.resolved"]);
    const ids = await enqueueWebhooks(db, acme, "feedback.resolved", [resolved("fb_1"), resolved("fb_2")]);
    expect(ids).toHaveLength(2);
    expect(
      await enqueueWebhooks(db, acme, "feedback.created", [created, { ...created, id: "fb_2" }]),
    ).toEqual([]);
    const rows = await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.namespace, acme));
    expect(rows.map((r) => (r.payload.data as { id: string }).id).sort()).toEqual(["fb_1", "fb_2"]);
    expect(rows.every((r) => r.status === "pending" && ids.includes(r.id))).toBe(true);
  });

  rolledBack("nothing without a URL, whatever was chosen", async (db) => {
    await register(db, undefined, null);
    expect(await enqueueWebhook(db, acme, "webhook.test", test)).toBeNull();
    expect(await enqueueWebhooks(db, acme, "feedback.resolved", [resolved("fb_1")])).toEqual([]);
  });

  rolledBack("the database refuses an event that cannot be chosen", async (db) => {
    await expect(register(db, ["webhook.test" as SubscribableEvent])).rejects.toThrow();
  });
});
