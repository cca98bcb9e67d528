import http from "node:http";
import type { AddressInfo } from "node:net";
import { and, eq } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { webhookDeliveries } from "@/lib/db/schema";
import { webhookEnvelopeSchema } from "@/lib/schemas/webhook-events";
import { createSignInFetch } from "@/scripts/clients/siwx-fetch";
import { devnetX402Payer } from "@/scripts/clients/x402-payer";
import { APP, appFetch, postJson, uniqueName } from "@/testing/app-fetch";
import { workerDevnet } from "@/testing/worker-devnet";
import { queueDueDigests } from "./digest";
import { BACKOFF_SECONDS, deliverDueWebhooks } from "./worker";

// Alerts end to end: a real HTTP receiver on 127.0.0.1 (allowed on the devnet) gets what the worker
// sends in each format, a re-sent delivery, and a daily digest.

const devnet = workerDevnet();
const owner = {
  pay: devnetX402Payer(devnet, 5, appFetch),
  read: createSignInFetch(devnet.accounts[5]!.privateKey as `0x${string}`, appFetch),
};
const agent = devnetX402Payer(devnet, 6, appFetch);
const namespace = uniqueName("alerts");

type Received = { headers: Record<string, string>; body: string };
const received: Received[] = [];
let failing = false;
const receiver = http.createServer((req, res) => {
  let body = "";
  req.on("data", (c) => {
    body += c;
  });
  req.on("end", () => {
    received.push({ headers: req.headers as Record<string, string>, body });
    // Discord answers 204, Slack 200 "ok".
    res.writeHead(failing ? 500 : 204).end();
  });
});

const api = (path: string) => `${APP}/api/namespace/webhook${path}`;
const patch = (body: Record<string, unknown>) =>
  owner.read.fetch(api(""), { ...postJson({ namespace, ...body }), method: "PATCH" });
const lastBody = () => JSON.parse(received.at(-1)!.body);
async function submit(title: string) {
  const res = await agent.fetch(
    `${APP}/api/namespace/feedback`,
    postJson({ namespace, type: "bug", title, description: "Something broke here." }),
  );
  expect(res.status).toBe(200);
  return (await res.json()).id as string;
}

beforeAll(async () => {
  await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  const res = await owner.pay.fetch(
    `${APP}/api/namespace/register`,
    postJson({ namespace, webhookUrl: url }),
  );
  expect(res.status).toBe(200);
});
afterAll(async () => {
  receiver.closeAllConnections();
  await new Promise((r) => receiver.close(r));
});

describe("alerts", () => {
  it("posts a Slack message, unsigned and escaped, to a URL set to the slack format", async () => {
    const set = await patch({ format: "slack" });
    expect(await set.json()).toMatchObject({ format: "slack", digest: "off" });
    const id = await submit("Checkout <fails> & loses the cart");
    expect(await deliverDueWebhooks({ namespace })).toMatchObject({ delivered: 1 });
    const { headers } = received.at(-1)!;
    expect(headers["content-type"]).toBe("application/json");
    expect(headers["webhook-signature"]).toBeUndefined();
    const message = lastBody();
    expect(message.text).toBe(`🐞 New bug in ${namespace}: Checkout &lt;fails&gt; &amp; loses the cart`);
    expect(message.blocks[0].text.text).toContain(`item=${id}|Checkout &lt;fails&gt;`);
  });

  it("posts a Discord message for a chosen event only, and never one for an event left out", async () => {
    const set = await patch({ format: "discord", events: ["feedback.status_changed"] });
    expect(await set.json()).toMatchObject({ format: "discord", events: ["feedback.status_changed"] });
    const id = await submit("Dark mode resets");
    const before = received.length;
    expect(await deliverDueWebhooks({ namespace })).toMatchObject({ delivered: 0 });
    const triage = await owner.read.fetch(
      `${APP}/api/namespace/feedback/status`,
      postJson({ namespace, feedbackIds: [id], status: "needs_info", message: "@everyone which OS?" }),
    );
    expect(triage.status).toBe(200);
    expect(await deliverDueWebhooks({ namespace })).toMatchObject({ delivered: 1 });
    expect(received.length).toBe(before + 1);
    const message = lastBody();
    expect(message).toMatchObject({
      content: `🔄 open → needs info in ${namespace.replaceAll("-", "\\-")}`,
      allowed_mentions: { parse: [] },
      embeds: [
        {
          title: "Dark mode resets",
          fields: [
            { name: "Message", value: "@\u200beveryone which OS?" },
            { name: "Changed by", value: `${owner.pay.address.slice(0, 6)}…${owner.pay.address.slice(-4)}` },
          ],
        },
      ],
    });
  });

  it("re-sends a failed delivery once, however many clicks, and the copy arrives signed", async () => {
    await patch({ format: "standard", events: ["feedback.created", "feedback.status_changed"] });
    const secret = (await (await owner.read.fetch(api(`?namespace=${namespace}`))).json()).secret as string;
    failing = true;
    const test = await (await owner.read.fetch(api("/test"), postJson({ namespace }))).json();
    const db = await getDb();
    await db
      .update(webhookDeliveries)
      .set({ attempts: BACKOFF_SECONDS.length })
      .where(and(eq(webhookDeliveries.id, test.id)));
    expect(await deliverDueWebhooks({ namespace })).toMatchObject({ failed: 1 });
    const failedBody = received.at(-1)!.body;
    failing = false;

    const clicks = await Promise.all(
      [1, 2].map(() => owner.read.fetch(api("/deliveries/resend"), postJson({ namespace, id: test.id }))),
    );
    expect(clicks.map((r) => r.status).sort()).toEqual([202, 409]);
    const copy = await clicks.find((r) => r.status === 202)!.json();
    expect(copy).toMatchObject({ resentFrom: test.id, eventType: "webhook.test", status: "pending" });
    expect(await deliverDueWebhooks({ namespace })).toMatchObject({ delivered: 1 });
    const arrived = received.at(-1)!;
    expect(arrived.body).toBe(failedBody);
    expect(arrived.headers["webhook-id"]).toBe(copy.id);
    expect(new Webhook(secret).verify(arrived.body, arrived.headers)).toMatchObject({ type: "webhook.test" });
    const log = (await (await owner.read.fetch(api(`/deliveries?namespace=${namespace}`))).json()).deliveries;
    expect(log.find((d: { id: string }) => d.id === test.id)).toMatchObject({
      status: "failed",
      resentAs: copy.id,
    });
    expect(log.find((d: { id: string }) => d.id === copy.id)).toMatchObject({
      status: "delivered",
      resentFrom: test.id,
    });
  });

  it("sends one daily digest of the day, signed, in the published shape", async () => {
    expect((await (await patch({ digest: "daily" })).json()).digest).toBe("daily");
    // Turned on today, the first digest is today's, queued after the day ends (the clock moved on).
    const tomorrow = new Date(Date.now() + 86_400_000);
    expect(await queueDueDigests({ namespace })).toEqual({ due: 0, queued: 0 });
    // Two instances' passes at once (truly concurrent on PostgreSQL): one digest.
    const passes = await Promise.all([1, 2].map(() => queueDueDigests({ namespace, now: tomorrow })));
    expect(passes.reduce((n, p) => n + p.queued, 0)).toBe(1);
    expect(await queueDueDigests({ namespace, now: tomorrow })).toEqual({ due: 0, queued: 0 });
    expect(await deliverDueWebhooks({ namespace })).toMatchObject({ delivered: 1 });
    const secret = (await (await owner.read.fetch(api(`?namespace=${namespace}`))).json()).secret as string;
    const digest = webhookEnvelopeSchema("digest.daily").parse(
      new Webhook(secret).verify(received.at(-1)!.body, received.at(-1)!.headers),
    );
    expect(digest.data).toMatchObject({
      namespace,
      created: { total: 2, bug: 2 },
      statusChanges: { total: 1, to: { needs_info: 1 } },
    });
    expect(digest.data.newest.map((n) => n.title)).toEqual([
      "Dark mode resets",
      "Checkout <fails> & loses the cart",
    ]);
  });
});
