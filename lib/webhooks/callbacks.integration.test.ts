import http from "node:http";
import type { AddressInfo } from "node:net";
import { eq, sql } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { feedback, payments, webhookDeliveries } from "@/lib/db/schema";
import { type CallbackEventType, callbackEnvelopeSchema } from "@/lib/schemas/callback";
import { createMppFetch } from "@/scripts/clients/mpp-payer";
import { createSignInFetch } from "@/scripts/clients/siwx-fetch";
import { devnetX402Payer } from "@/scripts/clients/x402-payer";
import { APP, appFetch, postJson, uniqueName } from "@/testing/app-fetch";
import { distinctTitle } from "@/testing/titles";
import { workerDevnet } from "@/testing/worker-devnet";
import { deliverDueWebhooks } from "./worker";

// A reporter's callback, end to end: real x402 and MPP payments, a real HTTP receiver on 127.0.0.1 (the
// devnet's environment allows loopback, as it does for owners' webhooks), the outbox worker, and every
// delivery verified with the `standardwebhooks` package and checked against the published event shapes.

const devnet = workerDevnet();
const keyOf = (i: number) => devnet.accounts[i]!.privateKey as `0x${string}`;
const owner = { pay: devnetX402Payer(devnet, 2, appFetch), read: createSignInFetch(keyOf(2), appFetch) };
const agent = { pay: devnetX402Payer(devnet, 3, appFetch), read: createSignInFetch(keyOf(3), appFetch) };
const mppAgent = createMppFetch(devnet.tempo, keyOf(6), appFetch);
const other = { pay: devnetX402Payer(devnet, 5, appFetch), read: createSignInFetch(keyOf(5), appFetch) };
const stranger = createSignInFetch(keyOf(4), appFetch);
const namespace = uniqueName("callback");

type Received = { path: string; headers: Record<string, string>; body: string };
const received: Received[] = [];
let failNext = 0;
const receiver = http.createServer((req, res) => {
  let body = "";
  req.on("data", (c) => {
    body += c;
  });
  req.on("end", () => {
    received.push({ path: req.url ?? "", headers: req.headers as Record<string, string>, body });
    if (failNext > 0) {
      failNext -= 1;
      res.writeHead(503).end("busy");
    } else res.writeHead(200).end("ok");
  });
});
let base = "";
const hookUrl = (path: string) => `${base}/${path}`;

const feedbackUrl = `${APP}/api/namespace/feedback`;
const report = (extra: Record<string, unknown> = {}) => ({
  namespace,
  type: "bug",
  title: distinctTitle("Export drops the header row"),
  description: "The exported CSV starts at the second row.",
  ...extra,
});
async function submit(by: { fetch: typeof fetch }, extra: Record<string, unknown> = {}) {
  const res = await by.fetch(feedbackUrl, postJson(report(extra)));
  expect(res.status).toBe(200);
  return (await res.json()) as { id: string; callbackSecret?: string } & Record<string, unknown>;
}
const triage = (body: Record<string, unknown>) =>
  owner.read.fetch(`${APP}/api/namespace/feedback/status`, postJson({ namespace, ...body }));
const resolve = (who: { fetch: typeof fetch }, body: Record<string, unknown>) =>
  who.fetch(`${APP}/api/namespace/resolve`, postJson(body));
const setCallback = (who: { fetch: typeof fetch }, body: Record<string, unknown>) =>
  who.fetch(`${APP}/api/namespace/feedback/callback`, { ...postJson(body), method: "PATCH" });

/** Sends every due delivery of this namespace (retries made due now), then what reached `path`. */
async function deliveredTo(path: string) {
  const db = await getDb();
  for (let pass = 0; pass < 5; pass++) {
    await db
      .update(webhookDeliveries)
      .set({ nextAttemptAt: sql`now()` })
      .where(eq(webhookDeliveries.namespace, namespace));
    const outcome = await deliverDueWebhooks({ namespace });
    if (outcome.pending === 0 && outcome.delivered + outcome.failed === 0) break;
  }
  return received.filter((r) => r.path === `/${path}`);
}

/** Verifies the signature with `secret`, then that the body is exactly the published shape of its type. */
function verified(r: Received, secret: string) {
  const payload = new Webhook(secret).verify(r.body, r.headers) as { type: CallbackEventType };
  const checked = callbackEnvelopeSchema(payload.type).safeParse(payload);
  expect(checked.error?.issues ?? []).toEqual([]);
  return payload as { type: string; timestamp: string; data: Record<string, unknown> };
}

beforeAll(async () => {
  await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  expect((await owner.pay.fetch(`${APP}/api/namespace/register`, postJson({ namespace }))).status).toBe(200);
});
afterAll(() => new Promise<void>((r) => receiver.close(() => r())));

describe("a reporter's callback", () => {
  it("answers exactly as before without one, and a secret shown once with one", async () => {
    const plain = await submit(agent.pay);
    expect(Object.keys(plain).sort()).toEqual(["createdAt", "id", "namespace", "registered"]);
    const withCallback = await submit(agent.pay, { callbackUrl: hookUrl("plain") });
    expect(withCallback.callbackSecret).toMatch(/^whsec_[A-Za-z0-9+/=]{40,}$/);
    // Stored; the secret is in no read, and the URL only in its submitter's own list (its /submissions page).
    const db = await getDb();
    const [row] = await db.select().from(feedback).where(eq(feedback.id, withCallback.id));
    expect(row).toMatchObject({ callbackUrl: hookUrl("plain"), callbackSecret: withCallback.callbackSecret });
    for (const who of [owner.read, agent.read]) {
      const text = await (await who.fetch(`${feedbackUrl}?id=${withCallback.id}`)).text();
      expect(text).not.toContain(base);
      expect(text).not.toContain(withCallback.callbackSecret);
    }
    const inbox = await (await owner.read.fetch(`${APP}/api/namespace/list?namespace=${namespace}`)).text();
    expect(inbox).not.toContain(base);
    const mine = await (await agent.read.fetch(`${APP}/api/namespace/status`)).json();
    const listed = mine.feedback.find((i: { id: string }) => i.id === withCallback.id);
    expect(listed.callbackUrl).toBe(hookUrl("plain"));
    expect(mine.feedback.find((i: { id: string }) => i.id === plain.id).callbackUrl).toBeNull();
    expect(JSON.stringify(mine)).not.toContain(withCallback.callbackSecret);
  });

  it("refuses a private, loopback-spelled, metadata or non-http URL before any charge, naming callbackUrl", async () => {
    const db = await getDb();
    const count = async () => (await db.select({ n: sql<number>`count(*)::int` }).from(payments))[0]!.n;
    const before = await count();
    for (const url of [
      "http://10.1.2.3/hook",
      "http://169.254.169.254/latest/meta-data",
      "http://[::ffff:10.0.0.1]/hook",
      "http://0x0a000001/hook",
      "http://192.168.1.20:8080/hook",
      "ftp://agent.example/hook",
      "not a url",
    ]) {
      const res = await agent.pay.fetch(feedbackUrl, postJson(report({ callbackUrl: url })));
      expect(res.status, url).toBe(400);
      const body = await res.json();
      expect(
        body.errors?.map((e: { field: string }) => e.field),
        url,
      ).toEqual(["callbackUrl"]);
      expect(JSON.stringify(body)).not.toMatch(/retry/i);
    }
    expect(await count()).toBe(before);
  });

  it("tells the reporter of each change, signed with its secret, and nothing of anyone else's", async () => {
    const { id, callbackSecret } = await submit(agent.pay, { callbackUrl: hookUrl("life") });
    const secret = callbackSecret!;
    const sibling = await submit(other.pay, { title: distinctTitle("Another reporter's words") });
    // The owner's private labels and another reporter's report must never reach this callback.
    const labelled = await owner.read.fetch(
      `${APP}/api/namespace/feedback/labels`,
      postJson({ namespace, feedbackIds: [id], add: ["private-triage-note"] }),
    );
    expect(labelled.status).toBe(200);
    const question = "Which browser, and does it happen with one row?";
    expect((await triage({ feedbackIds: [id], status: "needs_info", message: question })).status).toBe(200);
    expect((await triage({ feedbackIds: [id], status: "in_progress" })).status).toBe(200);
    expect((await resolve(owner.read, { feedbackId: id, message: "Fixed in 2.4" })).status).toBe(200);
    const disputed = await agent.read.fetch(
      `${APP}/api/namespace/feedback/confirm`,
      postJson({ id, outcome: "not_fixed", note: "Still starts at row two." }),
    );
    expect(disputed.status).toBe(200);
    const merged = await owner.read.fetch(
      `${APP}/api/namespace/feedback/merge`,
      postJson({ namespace, into: sibling.id, feedbackIds: [id] }),
    );
    expect(merged.status).toBe(200);

    // Deliveries run side by side (two per host), so they may arrive out of order: the envelope's
    // timestamp orders them, as docs/webhooks.md tells receivers to.
    const events = (await deliveredTo("life"))
      .map((r) => verified(r, secret))
      .sort((a, b) => a.timestamp.localeCompare(b.timestamp));
    expect(events.map((e) => e.type)).toEqual([
      "report.status_changed",
      "report.status_changed",
      "report.resolved",
      "report.reopened",
      "report.merged",
    ]);
    expect(events.map((e) => e.data.status)).toEqual([
      "needs_info",
      "in_progress",
      "resolved",
      "open",
      "open",
    ]);
    expect(events[0]!.data).toMatchObject({
      id,
      namespace,
      previousStatus: "open",
      question,
      message: question,
    });
    expect(events[2]!.data).toMatchObject({ id, message: "Fixed in 2.4", reward: null });
    expect(events[3]!.data).toMatchObject({
      previousStatus: "resolved",
      message: "Still starts at row two.",
    });
    const all = JSON.stringify(events);
    for (const secretOfOthers of [sibling.id, "Another reporter", "private-triage-note", other.pay.address]) {
      expect(all).not.toContain(secretOfOthers);
    }
    // Each delivery is its own Standard Webhooks message, and the owner's log never lists them.
    const ids = received.filter((r) => r.path === "/life").map((r) => r.headers["webhook-id"]);
    expect(new Set(ids).size).toBe(5);
    const log = await owner.read.fetch(`${APP}/api/namespace/webhook/deliveries?namespace=${namespace}`);
    // A refused read would pass the check below too: the log must be read, as its owner reads it.
    expect(log.status).toBe(200);
    const { namespace: logged, deliveries } = await log.json();
    expect(logged).toBe(namespace);
    expect(JSON.stringify(deliveries)).not.toContain("report.");
  });

  it("tells of a rewarded resolution once the reward is on chain, with its transaction, over MPP too", async () => {
    const { id, callbackSecret } = await submit(mppAgent, { callbackUrl: hookUrl("reward") });
    const res = await resolve(owner.pay, { feedbackId: id, message: "Thanks!", rewardAmount: "0.05" });
    expect(res.status).toBe(200);
    const { reward } = await res.json();
    const [event] = (await deliveredTo("reward")).map((r) => verified(r, callbackSecret!));
    expect(event).toMatchObject({
      type: "report.resolved",
      data: { id, status: "resolved", message: "Thanks!", reward: { amount: "0.05", txHash: reward.txHash } },
    });
  });

  it("retries a receiver that fails, with backoff, then delivers the same message once", async () => {
    const { id, callbackSecret } = await submit(agent.pay, { callbackUrl: hookUrl("retry") });
    failNext = 1;
    expect((await triage({ feedbackIds: [id], status: "acknowledged" })).status).toBe(200);
    const first = await deliverDueWebhooks({ namespace });
    expect(first.pending).toBe(1);
    const [pending] = await (await getDb())
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.callbackFor, id));
    expect(pending).toMatchObject({ status: "pending", attempts: 1, lastStatusCode: 503 });
    expect(pending!.nextAttemptAt.getTime()).toBeGreaterThan(Date.now());
    const sent = await deliveredTo("retry");
    expect(sent).toHaveLength(2);
    expect(sent[0]!.headers["webhook-id"]).toBe(sent[1]!.headers["webhook-id"]);
    expect(verified(sent[1]!, callbackSecret!).type).toBe("report.status_changed");
  });

  it("is replaced or removed by its reporter alone, signed in; anyone else learns nothing", async () => {
    const { id, callbackSecret } = await submit(agent.pay, { callbackUrl: hookUrl("old") });
    for (const who of [owner.read, other.read, stranger]) {
      const res = await setCallback(who, { id, callbackUrl: hookUrl("stolen") });
      expect(res.status).toBe(403);
      expect(await res.text()).not.toContain(base);
    }
    const unsigned = await appFetch(`${APP}/api/namespace/feedback/callback`, {
      ...postJson({ id, callbackUrl: null }),
      method: "PATCH",
    });
    expect(unsigned.status).toBe(402);
    expect((await setCallback(agent.read, { id: "fb_nope", callbackUrl: null })).status).toBe(404);
    const refused = await setCallback(agent.read, { id, callbackUrl: "http://10.0.0.8/hook" });
    expect(refused.status).toBe(400);
    expect((await refused.json()).errors[0].field).toBe("callbackUrl");

    const replaced = await setCallback(agent.read, { id, callbackUrl: hookUrl("new") });
    expect(replaced.status).toBe(200);
    const now = await replaced.json();
    expect(now).toMatchObject({
      id,
      callbackUrl: hookUrl("new"),
      callbackSecret: expect.stringMatching(/^whsec_/),
    });
    expect(now.callbackSecret).not.toBe(callbackSecret);
    expect((await triage({ feedbackIds: [id], status: "acknowledged" })).status).toBe(200);
    expect(await deliveredTo("old")).toHaveLength(0);
    const [delivery] = await deliveredTo("new");
    expect(() => new Webhook(callbackSecret!).verify(delivery!.body, delivery!.headers)).toThrow();
    expect(verified(delivery!, now.callbackSecret).data).toMatchObject({ id, status: "acknowledged" });

    const removed = await setCallback(agent.read, { id, callbackUrl: null });
    expect(await removed.json()).toEqual({ id, callbackUrl: null });
    expect((await triage({ feedbackIds: [id], status: "in_progress" })).status).toBe(200);
    const before = received.length;
    await deliveredTo("new");
    expect(received.length).toBe(before);
  });

  it("is set by a paid follow-up, and hears of the answer's own change", async () => {
    const { id } = await submit(agent.pay);
    const question = "Which version?";
    expect((await triage({ feedbackIds: [id], status: "needs_info", message: question })).status).toBe(200);
    const answered = await agent.pay.fetch(
      `${APP}/api/namespace/feedback/follow-up`,
      postJson({ feedbackId: id, message: "2.3.1", callbackUrl: hookUrl("follow") }),
    );
    expect(answered.status).toBe(200);
    const body = await answered.json();
    expect(body.callbackSecret).toMatch(/^whsec_/);
    const [event] = (await deliveredTo("follow")).map((r) => verified(r, body.callbackSecret));
    expect(event!.data).toMatchObject({ id, status: "open", previousStatus: "needs_info" });
    // The history keeps the answer, never the callback.
    const text = await (await owner.read.fetch(`${feedbackUrl}?id=${id}`)).text();
    expect(text).toContain("2.3.1");
    expect(text).not.toContain(base);
  });
});
