import { decodePaymentRequiredHeader, decodePaymentResponseHeader } from "@x402/core/http";
import { eq } from "drizzle-orm";
import { getAddress } from "viem";
import { generatePrivateKey } from "viem/accounts";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { payments } from "@/lib/db/schema";
import { parseServerTiming } from "@/lib/http/server-timing";
import { createX402Fetch } from "@/scripts/clients/x402-payer";
import { APP, appFetch, postJson, uniqueName } from "@/testing/app-fetch";
import { chainReader } from "@/testing/chain";
import { workerDevnet } from "@/testing/worker-devnet";

const devnet = workerDevnet();
const chain = chainReader(devnet.x402.rpcUrl, devnet.x402.asset as `0x${string}`);
// Each test file pays from its own wallet so balance checks never interleave.
const wallet = devnet.accounts[1]!;
const payer = createX402Fetch({
  privateKey: wallet.privateKey as `0x${string}`,
  network: devnet.x402.network as `${string}:${string}`,
  rpcUrl: devnet.x402.rpcUrl,
  asset: devnet.x402.asset,
  fetch: appFetch,
});

const item = (namespace: string) => ({
  namespace,
  type: "bug",
  title: "Checkout button does nothing",
  description: "Clicking Pay on /checkout leaves the page unchanged.",
});

async function challenge(body: unknown, path = "/api/namespace/feedback") {
  const res = await appFetch(`${APP}${path}`, postJson(body));
  expect(res.status).toBe(402);
  return res.headers.get("payment-required")!;
}

describe("paid submit through x402", () => {
  beforeAll(async () => {
    expect(await chain.balanceOf(wallet.address)).toBeGreaterThan(0n);
  });

  it("answers an unpaid call with a 402 naming the price, asset and recipient", async () => {
    const res = await appFetch(`${APP}/api/namespace/feedback`, postJson(item(uniqueName())));
    expect(res.status).toBe(402);
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    const required = decodePaymentRequiredHeader(res.headers.get("payment-required")!);
    expect(required.x402Version).toBe(2);
    expect(required.resource.url).toBe(`${APP}/api/namespace/feedback`);
    expect(required.accepts[0]).toMatchObject({
      scheme: "exact",
      network: devnet.x402.network,
      amount: "10000",
      asset: devnet.x402.asset,
      payTo: devnet.x402.payTo,
    });
  });

  it("stores a paid item and moves exactly 0.01 USDC from the payer to the service", async () => {
    const before = await chain.balanceOf(wallet.address);
    const res = await payer.fetch(`${APP}/api/namespace/feedback`, postJson(item(uniqueName())));
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(Object.keys(body).sort()).toEqual(["createdAt", "id", "namespace", "registered"]);
    expect(body.id).toMatch(/^fb_[A-Za-z0-9_-]{22}$/);
    expect(body.registered).toBe(false);
    expect(body.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    const settled = decodePaymentResponseHeader(res.headers.get("payment-response")!);
    const onChain = await chain.transfersIn(settled.transaction);
    expect(onChain.status).toBe("success");
    expect(onChain.transfers).toEqual([{ from: wallet.address, to: devnet.x402.payTo, value: 10_000n }]);
    expect(await chain.balanceOf(wallet.address)).toBe(before - 10_000n);
    // Where the time went, phase by phase, and the phases add up to no more than the total.
    const timing = parseServerTiming(res.headers.get("server-timing"));
    // A submission's x402 credential is claimed as it reads, then settled by one facilitator call that
    // verifies it before sending anything: there is no separate verify slice.
    // finish: the stored report is handed to grouping, in the background.
    expect(Object.keys(timing)).toEqual(["claim", "settle", "store", "finish", "total"]);
    const { total, ...phases } = timing;
    expect(Object.values(phases).every((ms) => ms >= 0)).toBe(true);
    expect(Object.values(phases).reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(total! + 0.5);
  });

  it("refuses an invalid body before any payment, naming the field", async () => {
    const before = await chain.balanceOf(wallet.address);
    const res = await payer.fetch(
      `${APP}/api/namespace/feedback`,
      postJson({ ...item(uniqueName()), title: "no" }),
    );
    expect(res.status).toBe(400);
    const problem = await res.json();
    expect(problem.errors).toEqual([{ field: "title", message: expect.stringContaining("at least 3") }]);
    expect(await chain.balanceOf(wallet.address)).toBe(before);
  });

  it("releases the claim of a credential that verification refuses, so it was never spent", async () => {
    const broke = createX402Fetch({
      privateKey: generatePrivateKey(),
      network: devnet.x402.network as `${string}:${string}`,
      rpcUrl: devnet.x402.rpcUrl,
      asset: devnet.x402.asset,
      fetch: appFetch,
    });
    const body = item(uniqueName());
    const signature = await broke.sign(await challenge(body));
    const send = () =>
      appFetch(`${APP}/api/namespace/feedback`, postJson(body, { "payment-signature": signature }));
    const payerOf = JSON.parse(Buffer.from(signature, "base64").toString()).payload.authorization.from;
    const ledger = async () =>
      (await getDb())
        .select()
        .from(payments)
        .where(eq(payments.payer, getAddress(payerOf)));

    for (let attempt = 0; attempt < 2; attempt++) {
      const res = await send();
      expect(res.status).toBe(402);
      const problem = await res.json();
      expect(problem.type).toMatch(/payment-invalid$/);
      expect(problem.detail).toMatch(/refused.*insufficient_balance/i);
      expect(await ledger()).toEqual([]);
    }
  });

  it("refuses a tampered signature before anything is sent, and charges nothing", async () => {
    const body = item(uniqueName());
    const signed = JSON.parse(Buffer.from(await payer.sign(await challenge(body)), "base64").toString());
    const sig: string = signed.payload.signature;
    signed.payload.signature = `${sig.slice(0, 10)}${sig[10] === "0" ? "1" : "0"}${sig.slice(11)}`;
    const tampered = Buffer.from(JSON.stringify(signed)).toString("base64");
    const before = await chain.balanceOf(wallet.address);

    const res = await appFetch(
      `${APP}/api/namespace/feedback`,
      postJson(body, { "payment-signature": tampered }),
    );
    expect(res.status).toBe(402);
    expect((await res.json()).type).toMatch(/payment-invalid$/);
    const nonce = signed.payload.authorization.nonce as string;
    const rows = await (await getDb()).select().from(payments).where(eq(payments.payer, wallet.address));
    expect(rows.filter((r) => r.paymentKey.endsWith(nonce.toLowerCase()))).toEqual([]);
    expect(await chain.balanceOf(wallet.address)).toBe(before);
  });

  it("settles one of twenty concurrent copies of one signed payment, once, and answers every copy by it", async () => {
    const body = item(uniqueName());
    const signature = await payer.sign(await challenge(body));
    const before = await chain.balanceOf(wallet.address);
    const send = () =>
      appFetch(`${APP}/api/namespace/feedback`, postJson(body, { "payment-signature": signature }));
    const results = await Promise.all(Array.from({ length: 20 }, send));
    const answers = await Promise.all(results.map(async (r) => ({ status: r.status, body: await r.json() })));
    // Copies that came while the first was in flight are told it is in progress, with its id, and not
    // to sign again; copies after it finished get its answer. Never a second item or charge.
    const stored = answers.filter((a) => a.status === 200);
    expect(stored.length).toBeGreaterThanOrEqual(1);
    expect(new Set(stored.map((a) => a.body.id)).size).toBe(1);
    for (const a of answers.filter((a) => a.status !== 200)) {
      expect(a.status).toBe(503);
      expect(a.body).toMatchObject({
        type: "/problems/payment-pending",
        paymentId: expect.stringMatching(/^pay_/),
      });
      expect(a.body.detail).toMatch(/do not sign a new payment/);
    }
    expect(await chain.balanceOf(wallet.address)).toBe(before - 10_000n);
    // Later, the same credential gets the same answer again, and is not charged again.
    const replay = await send();
    expect(replay.status).toBe(200);
    expect((await replay.json()).id).toBe(stored[0]!.body.id);
    expect(replay.headers.get("payment-response")).toBe(
      results.find((r) => r.status === 200)!.headers.get("payment-response"),
    );
    expect(await chain.balanceOf(wallet.address)).toBe(before - 10_000n);
    const rows = await (await getDb()).select().from(payments).where(eq(payments.payer, wallet.address));
    const nonce = JSON.parse(Buffer.from(signature, "base64").toString()).payload.authorization.nonce;
    expect(rows.filter((r) => r.paymentKey.endsWith(nonce.toLowerCase()))).toHaveLength(1);
  });

  it("registers a name to the paying wallet, claims earlier feedback, and refuses it again unpaid", async () => {
    const name = uniqueName("ns");
    for (let i = 0; i < 2; i++) {
      expect((await payer.fetch(`${APP}/api/namespace/feedback`, postJson(item(name)))).status).toBe(200);
    }
    const res = await payer.fetch(
      `${APP}/api/namespace/register`,
      postJson({ namespace: name, description: "Acme" }),
    );
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(Object.keys(body).sort()).toEqual([
      "createdAt",
      "existingFeedbackLinked",
      "namespace",
      "ownerWallet",
    ]);
    expect(body).toMatchObject({ namespace: name, ownerWallet: wallet.address, existingFeedbackLinked: 2 });

    const before = await chain.balanceOf(wallet.address);
    const again = await payer.fetch(`${APP}/api/namespace/register`, postJson({ namespace: name }));
    expect(again.status).toBe(409);
    expect(await chain.balanceOf(wallet.address)).toBe(before);

    const after = await payer.fetch(`${APP}/api/namespace/feedback`, postJson(item(name)));
    expect((await after.json()).registered).toBe(true);
  });
});
