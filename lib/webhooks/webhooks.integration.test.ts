import http from "node:http";
import type { AddressInfo } from "node:net";
import { and, eq, sql } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { webhookDeliveries } from "@/lib/db/schema";
import { parseServerEnv } from "@/lib/env";
import { type WebhookEventType, webhookEnvelopeSchema } from "@/lib/schemas/webhook-events";
import { createSignInFetch } from "@/scripts/clients/siwx-fetch";
import { devnetX402Payer } from "@/scripts/clients/x402-payer";
import { APP, appFetch, postJson, uniqueName } from "@/testing/app-fetch";
import { workerAppEnv, workerDevnet } from "@/testing/worker-devnet";
import { BACKOFF_SECONDS, deliverDueWebhooks } from "./worker";

// The receiver listens on 127.0.0.1, which the devnet's environment (WEBHOOKS_ALLOW_LOOPBACK) allows.

const devnet = workerDevnet();
const keyOf = (i: number) => devnet.accounts[i]!.privateKey as `0x${string}`;
const owner = { pay: devnetX402Payer(devnet, 5, appFetch), read: createSignInFetch(keyOf(5), appFetch) };
const agent = devnetX402Payer(devnet, 6, appFetch);
const stranger = createSignInFetch(keyOf(4), appFetch);
const namespace = uniqueName("hooks");

type Received = { path: string; headers: Record<string, string>; body: string };
const received: Received[] = [];
let mode: "ok" | "fail" | "hang" | "redirect" = "ok";
let receiverUrl = "";
const receiver = http.createServer((req, res) => {
  let body = "";
  req.on("data", (c) => {
    body += c;
  });
  req.on("end", () => {
    received.push({ path: req.url ?? "", headers: req.headers as Record<string, string>, body });
    if (mode === "fail") res.writeHead(500).end("down");
    else if (mode === "redirect") res.writeHead(307, { location: `${receiverUrl}?again` }).end();
    else if (mode === "ok") res.writeHead(200).end("ok");
    // "hang": never answers.
  });
});

const api = (path: string) => `${APP}/api/namespace/webhook${path}`;
const settings = async () =>
  (await (await owner.read.fetch(api(`?namespace=${namespace}`))).json()).secret as string;
const deliveries = async () =>
  (await (await owner.read.fetch(api(`/deliveries?namespace=${namespace}`))).json()).deliveries as {
    id: string;
    eventType: string;
    status: string;
    attempts: number;
    lastStatusCode: number | null;
    nextAttemptAt: string | null;
  }[];
// Stands in for the clock: makes every pending delivery due now.
const makeDue = async () =>
  (await getDb())
    .update(webhookDeliveries)
    .set({ nextAttemptAt: sql`now()` })
    .where(and(eq(webhookDeliveries.namespace, namespace), eq(webhookDeliveries.status, "pending")));
/** Checks the signature, then that the body is exactly the shape the OpenAPI document publishes. */
function verified(r: Received, secret: string) {
  const payload = new Webhook(secret).verify(r.body, r.headers) as { type: WebhookEventType };
  const checked = webhookEnvelopeSchema(payload.type).safeParse(payload);
  expect(checked.error?.issues ?? []).toEqual([]);
  return payload as { type: string; timestamp: string; data: Record<string, unknown> };
}
async function submit(title: string) {
  const res = await agent.fetch(
    `${APP}/api/namespace/feedback`,
    postJson({ namespace, type: "bug", title, severity: "high", description: "Something broke here." }),
  );
  expect(res.status).toBe(200);
  return (await res.json()).id as string;
}

beforeAll(async () => {
  await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  const res = await owner.pay.fetch(
    `${APP}/api/namespace/register`,
    postJson({ namespace, webhookUrl: receiverUrl }),
  );
  expect(res.status).toBe(200);
  // These tests count deliveries of the first three events; feedback.status_changed, which a resolve
  // also sends, is tested with the alerts (alerts.integration.test.ts).
  const events = ["feedback.created", "feedback.resolved", "reward.paid"];
  const chosen = await owner.read.fetch(api(""), { ...postJson({ namespace, events }), method: "PATCH" });
  expect((await chosen.json()).events).toEqual(events);
});
afterAll(async () => {
  receiver.closeAllConnections();
  await new Promise((r) => receiver.close(r));
});

describe("webhooks", () => {
  it("signs feedback.created and feedback.resolved so a standardwebhooks receiver verifies them", async () => {
    const secret = await settings();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const id = await submit("Webhook me");
    expect(await deliverDueWebhooks({ namespace })).toEqual({
      delivered: 1,
      pending: 0,
      failed: 0,
      released: 0,
    });
    const created = verified(received.at(-1)!, secret);
    expect(created).toMatchObject({
      type: "feedback.created",
      data: { id, namespace, type: "bug", title: "Webhook me", severity: "high" },
    });
    expect(received.at(-1)!.headers["webhook-id"]).toMatch(/^msg_/);

    const resolved = await owner.read.fetch(
      `${APP}/api/namespace/resolve`,
      postJson({ feedbackId: id, message: "Fixed" }),
    );
    expect(resolved.status).toBe(200);
    await deliverDueWebhooks({ namespace });
    expect(verified(received.at(-1)!, secret)).toMatchObject({
      type: "feedback.resolved",
      data: { id, resolvedBy: owner.pay.address, message: "Fixed", rewardAmount: null },
    });
  });

  it("announces a rewarded resolve and the reward once it is paid", async () => {
    const id = await submit("Worth a tip");
    await deliverDueWebhooks({ namespace });
    const res = await owner.pay.fetch(
      `${APP}/api/namespace/resolve`,
      postJson({ feedbackId: id, rewardAmount: "0.01" }),
    );
    expect(res.status).toBe(200);
    const { reward } = await res.json();
    const [secret, before] = [await settings(), received.length];
    await deliverDueWebhooks({ namespace });
    const payloads = received.slice(before).map((r) => verified(r, secret));
    expect(payloads.map((p) => p.type).sort()).toEqual(["feedback.resolved", "reward.paid"]);
    expect(payloads.find((p) => p.type === "reward.paid")?.data).toEqual({
      id,
      namespace,
      amount: "0.01",
      recipient: agent.address,
      txHash: reward.txHash,
    });
    expect(payloads.find((p) => p.type === "feedback.resolved")?.data.rewardAmount).toBe("0.01");
  });

  it("never slows the paid call, retries a failing receiver with growing backoff, then delivers", async () => {
    mode = "hang";
    const before = received.length;
    await submit("First of the outage");
    const pass = deliverDueWebhooks({ namespace, sendOptions: { responseTimeoutMs: 5_000 } });
    let passDone = false;
    void pass.then(() => {
      passDone = true;
    });
    while (received.length === before) await new Promise((r) => setTimeout(r, 20));
    // The worker is stuck on a receiver that never answers (for 5 s); a paid call is not held up by it: it
    // is answered while the pass still waits.
    const id = await submit("During the outage");
    expect(passDone).toBe(false);
    expect(await pass).toEqual({ delivered: 0, pending: 1, failed: 0, released: 0 });

    mode = "fail";
    await makeDue();
    await deliverDueWebhooks({ namespace });
    const byTitle = async (title: string) => {
      const rows = await deliveries();
      const db = await getDb();
      const all = await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.namespace, namespace));
      const row = all.find((r) => (r.payload.data as { title?: string }).title === title)!;
      return { api: rows.find((d) => d.id === row.id)!, row };
    };
    const first = await byTitle("During the outage");
    expect(first.api).toMatchObject({ status: "pending", attempts: 1, lastStatusCode: 500 });
    const firstWait = first.row.nextAttemptAt.getTime() - first.row.lastAttemptAt!.getTime();
    expect(firstWait).toBe(5_000);

    await makeDue();
    await deliverDueWebhooks({ namespace });
    const second = await byTitle("During the outage");
    expect(second.api).toMatchObject({ status: "pending", attempts: 2, lastStatusCode: 500 });
    expect(second.row.nextAttemptAt.getTime() - second.row.lastAttemptAt!.getTime()).toBe(30_000);
    const hung = await byTitle("First of the outage");
    expect(hung.api).toMatchObject({ status: "pending", attempts: 3, lastStatusCode: 500 });

    mode = "ok";
    await makeDue();
    expect(await deliverDueWebhooks({ namespace })).toEqual({
      delivered: 2,
      pending: 0,
      failed: 0,
      released: 0,
    });
    const done = await byTitle("During the outage");
    expect(done.api).toMatchObject({
      status: "delivered",
      attempts: 3,
      lastStatusCode: 200,
      nextAttemptAt: null,
    });
    expect(
      received.some((r) => JSON.parse(r.body).data.id === id && r.headers["webhook-id"] === done.row.id),
    ).toBe(true);
  });

  it("never delivers a message twice when two workers race", async () => {
    const ids = new Set<string>();
    for (let i = 0; i < 6; i++) {
      const res = await owner.read.fetch(api("/test"), postJson({ namespace }));
      expect(res.status).toBe(202);
      ids.add((await res.json()).id);
    }
    const before = received.length;
    // Each pass sends at most PER_HOST_LIMIT at once to this one receiver: race pairs until all are out.
    let delivered = 0;
    for (let round = 0; round < 10 && delivered < ids.size; round++) {
      const [a, b] = await Promise.all([
        deliverDueWebhooks({ namespace, limit: 4 }),
        deliverDueWebhooks({ namespace, limit: 4 }),
      ]);
      delivered += a.delivered + b.delivered;
    }
    expect(delivered).toBe(6);
    const sent = received.slice(before).map((r) => r.headers["webhook-id"]!);
    expect(sent.sort()).toEqual([...ids].sort());
    expect(await deliverDueWebhooks({ namespace })).toEqual({
      delivered: 0,
      pending: 0,
      failed: 0,
      released: 0,
    });
  });

  it("signs with the new secret after a rotation", async () => {
    const old = await settings();
    const res = await owner.read.fetch(api("/rotate"), postJson({ namespace }));
    expect(res.status).toBe(200);
    const fresh = (await res.json()).secret as string;
    expect(fresh).not.toBe(old);
    await owner.read.fetch(api("/test"), postJson({ namespace }));
    await deliverDueWebhooks({ namespace });
    const last = received.at(-1)!;
    expect(verified(last, fresh).type).toBe("webhook.test");
    expect(() => verified(last, old)).toThrow();
  });

  it("does not follow a receiver's redirect", async () => {
    mode = "redirect";
    const before = received.length;
    await owner.read.fetch(api("/test"), postJson({ namespace }));
    expect(await deliverDueWebhooks({ namespace })).toEqual({
      delivered: 0,
      pending: 1,
      failed: 0,
      released: 0,
    });
    expect(received.slice(before).map((r) => r.path)).toEqual(["/hook"]);
    expect((await deliveries())[0]).toMatchObject({ status: "pending", lastStatusCode: 307 });
    mode = "ok";
    await makeDue();
    await deliverDueWebhooks({ namespace });
  });

  it("lets only the owner manage the webhook, and refuses private or non-http URLs", async () => {
    expect((await stranger.fetch(api(`?namespace=${namespace}`))).status).toBe(403);
    expect((await stranger.fetch(api("/rotate"), postJson({ namespace }))).status).toBe(403);
    expect((await stranger.fetch(api(`/deliveries?namespace=${namespace}`))).status).toBe(403);
    const patch = (url: string | null) =>
      owner.read.fetch(api(""), { ...postJson({ namespace, url }), method: "PATCH" });
    for (const url of [
      "http://10.0.0.1/x",
      "http://[::ffff:169.254.169.254]/",
      "http://0xa9fea9fe/",
      "ftp://x.example/",
    ]) {
      const res = await patch(url);
      expect(res.status).toBe(400);
      expect((await res.json()).errors[0].field).toBe("url");
    }
    // Loopback names resolve without a query, and the devnet allows them: the save checks DNS.
    const changed = await patch("http://localhost:9/feedback");
    expect(await changed.json()).toMatchObject({ namespace, url: "http://localhost:9/feedback" });
    expect((await (await patch(null)).json()).url).toBeNull();
    expect((await owner.read.fetch(api("/test"), postJson({ namespace }))).status).toBe(409);
    const refused = await owner.pay.fetch(
      `${APP}/api/namespace/register`,
      postJson({ namespace: uniqueName("hooks"), webhookUrl: "http://169.254.169.254/latest" }),
    );
    expect(refused.status).toBe(400);
  });

  it("gives up after about a day of retries", async () => {
    expect(BACKOFF_SECONDS.reduce((a, b) => a + b, 0) / 3600).toBeGreaterThan(22);
    mode = "fail";
    const restored = await owner.read.fetch(api(""), {
      ...postJson({ namespace, url: receiverUrl }),
      method: "PATCH",
    });
    expect(restored.status).toBe(200);
    expect((await owner.read.fetch(api("/test"), postJson({ namespace }))).status).toBe(202);
    const db = await getDb();
    await db
      .update(webhookDeliveries)
      .set({ attempts: BACKOFF_SECONDS.length })
      .where(and(eq(webhookDeliveries.namespace, namespace), eq(webhookDeliveries.status, "pending")));
    expect(await deliverDueWebhooks({ namespace })).toEqual({
      delivered: 0,
      pending: 0,
      failed: 1,
      released: 0,
    });
    expect((await deliveries())[0]).toMatchObject({ status: "failed", attempts: 11, nextAttemptAt: null });
    mode = "ok";
  });

  it("allows loopback receivers only on the local devnet", () => {
    const base = workerAppEnv();
    expect(parseServerEnv({ ...base, WEBHOOKS_ALLOW_LOOPBACK: "true" }).WEBHOOKS_ALLOW_LOOPBACK).toBe(true);
    expect(() =>
      parseServerEnv({ ...base, WEBHOOKS_ALLOW_LOOPBACK: "true", X402_NETWORK: "eip155:8453" }),
    ).toThrow(/WEBHOOKS_ALLOW_LOOPBACK: loopback webhook receivers are only allowed on the local devnet/);
    expect(parseServerEnv({ ...base, WEBHOOKS_ALLOW_LOOPBACK: undefined }).WEBHOOKS_ALLOW_LOOPBACK).toBe(
      false,
    );
  });
});
