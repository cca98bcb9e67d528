import { inArray, sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { namespaces, webhookDeliveries } from "@/lib/db/schema";
import { uniqueName } from "@/testing/app-fetch";
import type { SendResult } from "./send";
import { newMessageId, newWebhookSecret } from "./sign";
import { deliverDueWebhooks, PER_HOST_LIMIT } from "./worker";

// Namespaces and deliveries are written directly: these tests are about the pass, not registration.
const created: string[] = [];
async function receiver(url: string) {
  const name = uniqueName("cap");
  created.push(name);
  const db = await getDb();
  await db.insert(namespaces).values({
    name,
    webhookUrl: url,
    webhookSecret: newWebhookSecret(),
    ownerWallet: "0x0000000000000000000000000000000000000001",
    paymentId: `test-${name}`,
    createdAt: new Date(),
  });
  return name;
}
/** `count` due deliveries for `namespace`, due `ageSeconds` ago (older ones first in the queue). */
async function enqueue(namespace: string, count: number, ageSeconds: number) {
  const rows = Array.from({ length: count }, (_, i) => ({
    id: newMessageId(),
    namespace,
    eventType: "webhook.test",
    payload: { type: "webhook.test", timestamp: new Date().toISOString(), data: { namespace, message: "" } },
    nextAttemptAt: sql`now() - ${sql.raw(`interval '${ageSeconds - i} seconds'`)}`,
  }));
  await (await getDb()).insert(webhookDeliveries).values(rows);
  return rows.map((r) => r.id);
}
const rowsOf = async (names: string[]) =>
  (await getDb()).select().from(webhookDeliveries).where(inArray(webhookDeliveries.namespace, names));

/** A send that records what it was asked and how many ran at once per host; `hold` delays its answer. */
function recorder(hold: () => Promise<void> = () => new Promise((r) => setTimeout(r, 30))) {
  const running = new Map<string, number>();
  const peak = new Map<string, number>();
  const sent: { host: string; id: string }[] = [];
  const send = async (url: string, _body: string, headers: Record<string, string>): Promise<SendResult> => {
    const host = new URL(url).hostname;
    sent.push({ host, id: headers["webhook-id"]! });
    running.set(host, (running.get(host) ?? 0) + 1);
    peak.set(host, Math.max(peak.get(host) ?? 0, running.get(host)!));
    await hold();
    running.set(host, running.get(host)! - 1);
    return { ok: true, statusCode: 200, error: null, body: "" };
  };
  return { send, peak, sent };
}

afterAll(async () => {
  // Nothing of these tests stays due for another file's unscoped pass.
  const db = await getDb();
  await db.delete(webhookDeliveries).where(inArray(webhookDeliveries.namespace, created));
  await db.delete(namespaces).where(inArray(namespaces.name, created));
});

describe("a worker pass caps the attempts per receiver host", () => {
  it("sends at most two at once to one host, hands the rest back at once, and sends them later", async () => {
    expect(PER_HOST_LIMIT).toBe(2);
    const busy = await receiver("https://busy.example/hook");
    const calm = await receiver("https://calm.example/hook");
    const busyIds = await enqueue(busy, 5, 60);
    const [calmId] = await enqueue(calm, 1, 1);
    const scope = { namespace: [busy, calm] };
    const before = new Map((await rowsOf([busy])).map((r) => [r.id, r.nextAttemptAt.getTime()]));

    let open = () => {};
    const gate = new Promise<void>((r) => {
      open = r;
    });
    const first = recorder(() => gate);
    const pass = deliverDueWebhooks({ ...scope, send: first.send });
    await expect.poll(() => first.sent.length, { timeout: 20_000 }).toBe(3);
    // The newer delivery to the other host is not held behind the busy one's backlog.
    expect(first.sent.map((s) => s.host).sort()).toEqual(["busy.example", "busy.example", "calm.example"]);
    expect(first.sent.map((s) => s.id)).toContain(calmId);

    // While the first pass still waits on its two, the other three are already free, untouched.
    const waiting = (await rowsOf([busy])).filter((r) => !first.sent.some((s) => s.id === r.id));
    expect(waiting).toHaveLength(3);
    for (const row of waiting) {
      expect(row).toMatchObject({ status: "pending", attempts: 0, lockedUntil: null });
      expect(row.nextAttemptAt.getTime()).toBe(before.get(row.id));
    }
    // Another instance's pass takes them meanwhile, with its own cap.
    const second = recorder();
    expect(await deliverDueWebhooks({ ...scope, send: second.send })).toEqual({
      delivered: 2,
      pending: 0,
      failed: 0,
      released: 1,
    });
    expect(second.peak.get("busy.example")).toBe(2);

    open();
    expect(await pass).toEqual({ delivered: 3, pending: 0, failed: 0, released: 3 });
    expect(first.peak.get("busy.example")).toBe(2);
    const third = recorder();
    expect(await deliverDueWebhooks({ ...scope, send: third.send })).toEqual({
      delivered: 1,
      pending: 0,
      failed: 0,
      released: 0,
    });
    expect(await deliverDueWebhooks({ ...scope, send: third.send })).toEqual({
      delivered: 0,
      pending: 0,
      failed: 0,
      released: 0,
    });

    const all = [...first.sent, ...second.sent, ...third.sent].map((s) => s.id);
    expect(all.sort()).toEqual([...busyIds, calmId].sort());
    const rows = await rowsOf([busy, calm]);
    expect(rows.every((r) => r.status === "delivered" && r.attempts === 1)).toBe(true);
  });

  it("leases each namespace's oldest first, so one receiver's backlog cannot fill a pass", async () => {
    const backlog = await receiver("https://backlog.example/hook");
    const other = await receiver("https://other.example/hook");
    await enqueue(backlog, 5, 600);
    const [newer] = await enqueue(other, 1, 1);
    const { send, sent } = recorder();
    const outcome = await deliverDueWebhooks({ namespace: [backlog, other], limit: 3, send });
    expect(outcome).toEqual({ delivered: 3, pending: 0, failed: 0, released: 0 });
    expect(sent.map((s) => s.id)).toContain(newer);
  });
});
