import http from "node:http";
import type { AddressInfo } from "node:net";
import { eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { feedback, namespaces, payments, webhookDeliveries } from "@/lib/db/schema";
import { claimPayment, requestHashOf } from "@/lib/payment/ledger";
import { x402Protocol } from "@/lib/payment/x402";
import { OPERATIONS } from "@/lib/schemas/operations/catalog";
import { newMessageId, newWebhookSecret } from "@/lib/webhooks/sign";
import { createX402Fetch } from "@/scripts/clients/x402-payer";
import { APP, appFetch, postJson, uniqueName } from "@/testing/app-fetch";
import { workerDevnet } from "@/testing/worker-devnet";

// The trigger is on for this file only: configuration is read once, on first use.
const SECRET = "cron-test-secret-0123456789abcdef";
process.env.CRON_SECRET = SECRET;

const devnet = workerDevnet();
const payer = createX402Fetch({
  privateKey: devnet.accounts[7]!.privateKey as `0x${string}`,
  network: devnet.x402.network as `${string}:${string}`,
  rpcUrl: devnet.x402.rpcUrl,
  asset: devnet.x402.asset,
  fetch: appFetch,
});
const trigger = (authorization?: string) =>
  appFetch(`${APP}/api/cron`, authorization ? { headers: { authorization } } : {});

const namespace = uniqueName("cron");
const received: string[] = [];
const receiver = http.createServer((req, res) => {
  received.push(String(req.headers["webhook-id"]));
  req.resume().on("end", () => res.writeHead(200).end("ok"));
});

/** A due delivery in the outbox, as an event's transaction leaves it for the worker. */
async function dueDelivery() {
  const id = newMessageId();
  await (await getDb()).insert(webhookDeliveries).values({
    id,
    namespace,
    eventType: "webhook.test",
    payload: { type: "webhook.test", timestamp: new Date().toISOString(), data: { namespace, message: "" } },
  });
  return id;
}

const deliveryStatus = async (id: string) =>
  (await (await getDb()).select().from(webhookDeliveries).where(eq(webhookDeliveries.id, id)))[0]?.status;

/**
 * A paid submission that settled on chain while the process that claimed it died before recording it:
 * the claim stays open, idle long past any live request. Only a recovery pass can finish it.
 */
async function abandonedClaim() {
  const url = `${APP}/api/namespace/feedback`;
  const input = { namespace, type: "bug", title: "Crashed mid-payment", description: "The server died." };
  const asked = await appFetch(url, postJson(input));
  const signature = await payer.sign(asked.headers.get("payment-required")!);
  const request = new Request(url, postJson(input, { "payment-signature": signature }));
  const charge = {
    operation: "feedback",
    method: "POST" as const,
    amountMicroUsd: OPERATIONS.feedback.price,
    resourceUrl: url,
    description: "Submitting feedback",
  };
  const payment = await x402Protocol.verify(request, charge, await x402Protocol.read(request, charge));
  const db = await getDb();
  const claim = await claimPayment(db, {
    payment,
    operation: "feedback",
    lockKey: null,
    request: { ...input, signedIn: null },
    requestHash: requestHashOf(input),
  });
  if (!claim.ok) throw new Error("claim refused");
  await payment.settle();
  await db
    .update(payments)
    .set({ updatedAt: new Date(Date.now() - 10 * 60_000) })
    .where(eq(payments.id, claim.paymentId));
  return claim.paymentId;
}

beforeAll(async () => {
  await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
  await (await getDb()).insert(namespaces).values({
    name: namespace,
    ownerWallet: devnet.accounts[7]!.address,
    paymentId: `test-${namespace}`,
    webhookUrl: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`,
    webhookSecret: newWebhookSecret(),
    webhookDigest: "daily",
    createdAt: new Date(),
  });
});

afterAll(async () => {
  const db = await getDb();
  await db.delete(webhookDeliveries).where(inArray(webhookDeliveries.namespace, [namespace]));
  receiver.close();
});

describe("the cron trigger", () => {
  it("refuses a missing or wrong secret with a 401 problem, runs nothing and echoes nothing", async () => {
    const id = await dueDelivery();
    for (const authorization of [undefined, "Bearer wrong-secret-0123456789", `Basic ${SECRET}`, SECRET]) {
      const res = await trigger(authorization);
      expect(res.status).toBe(401);
      expect(res.headers.get("content-type")).toBe("application/problem+json");
      expect(res.headers.get("www-authenticate")).toBe('Bearer realm="cron"');
      const text = await res.text();
      expect(JSON.parse(text)).toMatchObject({ type: "/problems/unauthorized", status: 401 });
      expect(text).not.toContain("wrong-secret");
      expect(text).not.toContain(SECRET);
    }
    expect(await deliveryStatus(id)).toBe("pending");
  });

  it("with the secret, one pass recovers an abandoned paid write, sends due webhooks and queues digests", async () => {
    const paymentId = await abandonedClaim();
    const delivery = await dueDelivery();

    const res = await trigger(`Bearer ${SECRET}`);
    expect(res.status).toBe(200);
    const report = await res.json();
    expect(report.stopped).toBe(false);
    // Counts, not exact: on a shared PostgreSQL the pass also finishes what other files left behind.
    expect(report.recovery.writes.fulfilled).toBeGreaterThanOrEqual(1);
    expect(report.webhooks.delivered).toBeGreaterThanOrEqual(1);
    expect(report.webhooks.digests.due).toBeGreaterThanOrEqual(1);

    // The write is stored once, from the ledger, and the namespace's digest of yesterday is claimed.
    const db = await getDb();
    const [row] = await db.select().from(payments).where(eq(payments.id, paymentId));
    expect(row?.status).toBe("fulfilled");
    expect(await db.select().from(feedback).where(eq(feedback.paymentId, paymentId))).toHaveLength(1);
    // A pass sends at most two deliveries to one host, oldest first: the first test's leftover, and on a shared
    // database other files' deliveries to 127.0.0.1, may take this pass's two. The next passes send the rest.
    for (let pass = 0; pass < 5 && !received.includes(delivery); pass++) {
      expect((await trigger(`Bearer ${SECRET}`)).status).toBe(200);
    }
    expect(received).toContain(delivery);
    expect(await deliveryStatus(delivery)).toBe("delivered");
    const [ns] = await db.select().from(namespaces).where(eq(namespaces.name, namespace));
    expect(ns?.webhookDigestThrough).toBe(new Date(Date.now() - 86_400_000).toISOString().slice(0, 10));

    // The stored write queued its own webhook; the next passes send it, and store nothing twice.
    const created = async () =>
      (await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.namespace, namespace)))
        .filter((d) => d.eventType === "feedback.created")
        .map((d) => d.status);
    for (let pass = 0; pass < 5 && (await created()).join() !== "delivered"; pass++) {
      expect((await trigger(`Bearer ${SECRET}`)).status).toBe(200);
    }
    expect(await created()).toEqual(["delivered"]);
    expect(await db.select().from(feedback).where(eq(feedback.paymentId, paymentId))).toHaveLength(1);
  });
});
