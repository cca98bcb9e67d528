import http from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type WebhookEventType, webhookEnvelopeSchema } from "@/lib/schemas/webhook-events";
import { createSignInFetch } from "@/scripts/clients/siwx-fetch";
import { devnetX402Payer } from "@/scripts/clients/x402-payer";
import { APP, appFetch, postJson, uniqueName } from "@/testing/app-fetch";
import { workerDevnet } from "@/testing/worker-devnet";
import { deliverDueWebhooks } from "./worker";

// The case end to end: resolving a group of three with a tip, through the paid route, its
// payout landing on the devnet. Slack gets one message; a Standard Webhooks receiver its seven events.

const devnet = workerDevnet();
const owner = {
  pay: devnetX402Payer(devnet, 5, appFetch),
  read: createSignInFetch(devnet.accounts[5]!.privateKey as `0x${string}`, appFetch),
};
const agent = devnetX402Payer(devnet, 6, appFetch);
const namespace = uniqueName("action");

const received: { headers: Record<string, string>; body: string }[] = [];
const receiver = http.createServer((req, res) => {
  let body = "";
  req.on("data", (c) => {
    body += c;
  });
  req.on("end", () => {
    received.push({ headers: req.headers as Record<string, string>, body });
    res.writeHead(200).end("ok");
  });
});
const api = (path: string) => `${APP}/api/namespace/webhook${path}`;
const patch = (body: Record<string, unknown>) =>
  owner.read.fetch(api(""), { ...postJson({ namespace, ...body }), method: "PATCH" });
async function submit(title: string) {
  const res = await agent.fetch(
    `${APP}/api/namespace/feedback`,
    postJson({ namespace, type: "bug", title, description: "Something broke here." }),
  );
  expect(res.status).toBe(200);
  return (await res.json()).id as string;
}
/** Files three items, then resolves them as one group with a tip on the first; returns their ids. */
async function resolveGroupWithTip(prefix: string) {
  const ids = [await submit(`${prefix} one`), await submit(`${prefix} two`), await submit(`${prefix} three`)];
  await deliverAll();
  const before = received.length;
  const res = await owner.pay.fetch(
    `${APP}/api/namespace/resolve`,
    postJson({ feedbackId: ids[0], alsoResolve: ids.slice(1), rewardAmount: "0.01", message: "Fixed" }),
  );
  expect(res.status).toBe(200);
  expect((await res.json()).reward).toMatchObject({ amount: "0.01" });
  return { ids, before };
}
/** Worker passes until nothing is left to send (a pass sends at most two at once to one host). */
async function deliverAll() {
  while ((await deliverDueWebhooks({ namespace })).delivered > 0);
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

describe("one owner action", () => {
  it("is one Slack message listing the three items, the reward paid among them", async () => {
    expect((await patch({ format: "slack" })).status).toBe(200);
    const { ids, before } = await resolveGroupWithTip("Slack");
    await deliverAll();
    expect(received.length - before).toBe(1);
    const message = JSON.parse(received.at(-1)!.body);
    expect(message.text).toBe(`✅ 3 items resolved in ${namespace}`);
    const list = message.blocks.map((b: { text?: { text: string } }) => b.text?.text ?? "").join("\n");
    expect(list).toContain(`item=${ids[0]}|Slack one> — open → resolved, reward of 0.01 USD paid`);
    expect(list).toContain(`item=${ids[1]}|Slack two> — open → resolved`);
    const log = await (await owner.read.fetch(api(`/deliveries?namespace=${namespace}`))).json();
    expect(log.deliveries[0]).toMatchObject({
      status: "delivered",
      lastStatusCode: 200,
      lastResponseExcerpt: "ok",
    });
    expect(log.deliveries[0].items.map((i: { title: string }) => i.title)).toEqual([
      "Slack one",
      "Slack three",
      "Slack two",
    ]);
  });

  it("is still seven signed events, one per item and change, for a Standard Webhooks receiver", async () => {
    await patch({ format: "standard" });
    const secret = (await (await owner.read.fetch(api(`?namespace=${namespace}`))).json()).secret as string;
    const { ids, before } = await resolveGroupWithTip("Standard");
    await deliverAll();
    const events = received.slice(before).map((r) => {
      const payload = new Webhook(secret).verify(r.body, r.headers) as { type: WebhookEventType };
      expect(webhookEnvelopeSchema(payload.type).safeParse(payload).success).toBe(true);
      return payload as { type: string; data: { id: string } };
    });
    expect(events.map((e) => `${e.type} ${ids.indexOf(e.data.id)}`).sort()).toEqual([
      "feedback.resolved 0",
      "feedback.resolved 1",
      "feedback.resolved 2",
      "feedback.status_changed 0",
      "feedback.status_changed 1",
      "feedback.status_changed 2",
      "reward.paid 0",
    ]);
  });
});
