import { eq } from "drizzle-orm";
import { describe, expect } from "vitest";
import type { DbOrTx } from "@/lib/db/client";
import { type feedback, feedbackEvents, namespaces, payouts, webhookDeliveries } from "@/lib/db/schema";
import { updateWebhook } from "@/lib/domain/webhooks/update-webhook";
import { updateWebhookSchema } from "@/lib/schemas/webhook";
import { webhookEnvelopeSchema } from "@/lib/schemas/webhook-events";
import { insertItem, insertNamespace, ref } from "@/testing/db-rows";
import { rolledBack } from "@/testing/rollback";
import { digestDay, queueDueDigests } from "./digest";

const owner = "0x00000000000000000000000000000000000000a1";
const acme = ref("acme");
// A pass shortly after midnight UTC summarises the day before.
const now = new Date("2026-11-24T00:01:00.000Z");
const day = "2026-11-23";
const during = (hour: number) => new Date(`${day}T${String(hour).padStart(2, "0")}:00:00.000Z`);

const register = (db: DbOrTx, digest: "off" | "daily" = "daily") =>
  insertNamespace(db, {
    name: acme,
    ownerWallet: owner,
    createdAt: new Date("2026-11-01T00:00:00.000Z"),
    webhookUrl: "https://hooks.example/x",
    webhookDigest: digest,
  });
const file = (db: DbOrTx, at: Date, item: Partial<typeof feedback.$inferInsert> = {}) =>
  insertItem(db, { namespace: acme, createdAt: at, ...item });
/** The owner's change to an item at `at`: a status change unless `change` says otherwise. */
const event = (feedbackId: string, at: Date, change: Partial<typeof feedbackEvents.$inferInsert>) => ({
  id: ref("ev"),
  feedbackId,
  namespace: acme,
  kind: "status" as const,
  actor: owner,
  createdAt: at,
  ...change,
});
const digests = (db: DbOrTx) =>
  db.select().from(webhookDeliveries).where(eq(webhookDeliveries.namespace, acme));
const pass = (db: DbOrTx, at = now) => queueDueDigests({ db, now: at, namespace: acme });

describe("the daily digest", () => {
  rolledBack("summarises the UTC day before: new items by type, status changes, rewards", async (db) => {
    await register(db);
    const bug = await file(db, during(9), { title: "Crash on save", severity: "high" });
    await file(db, during(10), { type: "feature", title: "Dark mode" });
    await file(db, new Date(`${day}T23:59:59.999Z`), { type: "feature", title: "Export" });
    await file(db, new Date("2026-11-24T00:00:00.000Z"), { title: "Too late" });
    await file(db, new Date("2026-11-22T23:59:59.999Z"), { title: "Too early" });
    await db
      .insert(feedbackEvents)
      .values([
        event(bug, during(11), { fromStatus: "open", toStatus: "resolved" }),
        event(bug, during(10), { fromStatus: "open", toStatus: "acknowledged" }),
        event(bug, during(10), { kind: "labels" }),
        event(bug, new Date("2026-11-22T12:00:00.000Z"), { fromStatus: "open", toStatus: "spam" }),
      ]);
    await db.insert(payouts).values({
      id: ref("po"),
      feedbackId: bug,
      paymentId: ref("pay"),
      recipient: owner,
      amount: "1250000",
      memo: "m",
      status: "paid",
      updatedAt: during(12),
    });

    expect(await pass(db)).toEqual({ due: 1, queued: 1 });
    const [row] = await digests(db);
    expect(row).toMatchObject({
      id: `msg_digest_${day}_${acme}`,
      eventType: "digest.daily",
      status: "pending",
    });
    const body = webhookEnvelopeSchema("digest.daily").parse(row!.payload);
    expect(body.data).toMatchObject({
      namespace: acme,
      date: day,
      from: `${day}T00:00:00.000Z`,
      to: "2026-11-24T00:00:00.000Z",
      created: { total: 3, bug: 1, feature: 2, feedback: 0 },
      statusChanges: { total: 2, to: { resolved: 1, acknowledged: 1, spam: 0 } },
      rewards: { count: 1, amount: "1.25" },
    });
    expect(body.data.newest.map((n) => n.title)).toEqual(["Export", "Dark mode", "Crash on save"]);
  });

  rolledBack("queues one digest a day, however many passes (or instances) run", async (db) => {
    await register(db);
    await file(db, during(9));
    const runs = [await pass(db), await pass(db), await pass(db, new Date("2026-11-24T23:59:00.000Z"))];
    expect(runs.map((r) => r.queued)).toEqual([1, 0, 0]);
    expect(await digests(db)).toHaveLength(1);
    const [stored] = await db.select().from(namespaces).where(eq(namespaces.name, acme));
    expect(stored!.webhookDigestThrough).toBe(day);
    // Even a claim made twice (the day's mark moved back) queues no second digest: its id is the day's.
    await db.update(namespaces).set({ webhookDigestThrough: null }).where(eq(namespaces.name, acme));
    expect(await pass(db)).toEqual({ due: 1, queued: 0 });
    expect(await digests(db)).toHaveLength(1);
    // The next day is a new digest.
    await file(db, new Date("2026-11-24T08:00:00.000Z"));
    expect((await pass(db, new Date("2026-11-25T00:00:30.000Z"))).queued).toBe(1);
    expect((await digests(db)).map((d) => d.id).sort()).toEqual([
      `msg_digest_${day}_${acme}`,
      `msg_digest_2026-11-24_${acme}`,
    ]);
  });

  rolledBack("claims a quiet day without sending anything", async (db) => {
    await register(db);
    expect(await pass(db)).toEqual({ due: 1, queued: 0 });
    expect(await digests(db)).toEqual([]);
    expect(await pass(db)).toEqual({ due: 0, queued: 0 });
  });

  rolledBack("sends nothing when the digest is off or there is no URL", async (db) => {
    await register(db, "off");
    await file(db, during(9));
    expect(await pass(db)).toEqual({ due: 0, queued: 0 });
    await db
      .update(namespaces)
      .set({ webhookDigest: "daily", webhookUrl: null })
      .where(eq(namespaces.name, acme));
    expect(await pass(db)).toEqual({ due: 0, queued: 0 });
  });

  rolledBack("turned on, starts with the day it was turned on, not the day before", async (db) => {
    await register(db, "off");
    await file(db, new Date(Date.now() - 86_400_000));
    const on = await updateWebhook(
      owner,
      updateWebhookSchema.parse({ namespace: acme, digest: "daily" }),
      db,
    );
    expect(on.digest).toBe("daily");
    expect((await queueDueDigests({ db, namespace: acme })).queued).toBe(0);
    const [stored] = await db.select().from(namespaces).where(eq(namespaces.name, acme));
    expect(stored!.webhookDigestThrough).toBe(digestDay(new Date()));
  });
});
