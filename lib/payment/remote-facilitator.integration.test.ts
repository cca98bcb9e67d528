import { decodePaymentResponseHeader } from "@x402/core/http";
import { eq } from "drizzle-orm";
import { createPublicClient, getAddress, type Hash, http } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { feedback, payments } from "@/lib/db/schema";
import { devnetX402Payer } from "@/scripts/clients/x402-payer";
import { extraFacilitators } from "@/scripts/devnet/accounts";
import { APP, appFetch, postJson, uniqueName } from "@/testing/app-fetch";
import { chainReader } from "@/testing/chain";
import { authorizationOf } from "@/testing/eip3009";
import { startFacilitatorProcess } from "@/testing/facilitator-process";
import { distinctTitle } from "@/testing/titles";
import { workerDevnet } from "@/testing/worker-devnet";

// The service with X402_FACILITATOR_URL only: every x402 payment is verified and settled by
// scripts/facilitator.ts running as a process of its own, from a key the service does not hold.
const devnet = workerDevnet();
const signer = extraFacilitators[2]!;
const facilitator = await startFacilitatorProcess({
  rpcUrl: devnet.x402.rpcUrl,
  network: devnet.x402.network,
  privateKey: signer.privateKey,
});
delete process.env.X402_FACILITATOR_PRIVATE_KEY;
process.env.X402_FACILITATOR_URL = facilitator.url;
afterAll(async () => {
  delete process.env.X402_FACILITATOR_URL;
  await facilitator.crash();
});

const PRICE = 10_000n;
const chain = chainReader(devnet.x402.rpcUrl, devnet.x402.asset);
const node = createPublicClient({ transport: http(devnet.x402.rpcUrl) });
const owner = devnetX402Payer(devnet, 2, appFetch);
const agent = devnetX402Payer(devnet, 3, appFetch);
const url = (path: string) => `${APP}/api/namespace/${path}`;
const report = (namespace: string) => ({
  namespace,
  type: "bug",
  title: distinctTitle("Paid through a remote facilitator"),
  description: "Settled by a facilitator process of its own.",
});

/** The settlement's transaction of a 200, checked to be the remote facilitator's and to pay `value`. */
async function settledBy(res: Response, from: string, to: string, value: bigint) {
  expect(res.status, await res.clone().text()).toBe(200);
  const tx = decodePaymentResponseHeader(res.headers.get("payment-response")!).transaction as Hash;
  expect(getAddress((await node.getTransaction({ hash: tx })).from)).toBe(signer.address);
  expect(await chain.transfersIn(tx)).toEqual({ status: "success", transfers: [{ from, to, value }] });
  return tx;
}

async function ledgerRows(signature: string) {
  const { nonce } = authorizationOf(signature);
  const rows = await (await getDb()).select().from(payments);
  return rows.filter((r) => r.paymentKey.endsWith(nonce.toLowerCase()));
}

const namespace = uniqueName("remote");

describe("the service with a remote facilitator", () => {
  it("answers /healthz and /supported with the network it settles on and its signer", async () => {
    expect(await (await fetch(`${facilitator.url}/healthz`)).json()).toMatchObject({
      status: "ok",
      network: devnet.x402.network,
      signer: signer.address,
    });
    const supported = await (await fetch(`${facilitator.url}/supported`)).json();
    expect(supported.kinds).toEqual([{ x402Version: 2, scheme: "exact", network: devnet.x402.network }]);
  });

  it("is unhealthy while its signer holds no gas for a settlement, naming the signer", async () => {
    const empty = generatePrivateKey();
    const broke = await startFacilitatorProcess({
      rpcUrl: devnet.x402.rpcUrl,
      network: devnet.x402.network,
      privateKey: empty,
    });
    try {
      const res = await fetch(`${broke.url}/healthz`);
      expect(res.status).toBe(503);
      expect(await res.json()).toMatchObject({
        status: "unfunded",
        signer: privateKeyToAccount(empty).address,
        detail: expect.stringContaining("send gas to"),
      });
    } finally {
      await broke.crash();
    }
  });

  it("registers a name: verified, claimed, then settled by the facilitator", async () => {
    const before = await chain.balanceOf(owner.address);
    const res = await owner.fetch(url("register"), postJson({ namespace }));
    const price = before - (await chain.balanceOf(owner.address));
    await settledBy(res, owner.address, devnet.x402.payTo, price);
    expect(await res.json()).toMatchObject({ namespace, ownerWallet: owner.address });
  });

  it("stores a submission once, and answers the same credential again from the ledger", async () => {
    const body = report(namespace);
    const asked = await appFetch(url("feedback"), postJson(body));
    const signature = await agent.sign(asked.headers.get("payment-required")!);
    const send = () => appFetch(url("feedback"), postJson(body, { "payment-signature": signature }));
    const before = await chain.balanceOf(agent.address);
    const first = await send();
    const tx = await settledBy(first, agent.address, devnet.x402.payTo, PRICE);
    const { id } = await first.json();
    const again = await send();
    expect(again.status).toBe(200);
    expect((await again.json()).id).toBe(id);
    expect(again.headers.get("payment-response")).toBe(first.headers.get("payment-response"));
    expect(await chain.balanceOf(agent.address)).toBe(before - PRICE);
    expect(await ledgerRows(signature)).toMatchObject([{ status: "fulfilled", txRef: tx, resultId: id }]);
  });

  it("settles one of ten copies of one payment sent at once, and distinct payments side by side", async () => {
    const body = report(namespace);
    const signature = await agent.sign(
      (await appFetch(url("feedback"), postJson(body))).headers.get("payment-required")!,
    );
    const before = await chain.balanceOf(agent.address);
    const copies = await Promise.all(
      Array.from({ length: 10 }, () =>
        appFetch(url("feedback"), postJson(body, { "payment-signature": signature })),
      ),
    );
    const answers = await Promise.all(copies.map(async (r) => ({ status: r.status, body: await r.json() })));
    const stored = answers.filter((a) => a.status === 200);
    expect(new Set(stored.map((a) => a.body.id)).size).toBe(1);
    for (const a of answers.filter((a) => a.status !== 200)) {
      expect(a).toMatchObject({ status: 503, body: { type: "/problems/payment-pending" } });
    }
    expect(await chain.balanceOf(agent.address)).toBe(before - PRICE);
    expect(await ledgerRows(signature)).toHaveLength(1);

    // Five payments at once: the facilitator's nonce manager sends them from one key without a clash.
    const many = await Promise.all(
      Array.from({ length: 5 }, () => agent.fetch(url("feedback"), postJson(report(namespace)))),
    );
    const txs = await Promise.all(many.map((r) => settledBy(r, agent.address, devnet.x402.payTo, PRICE)));
    expect(new Set(txs).size).toBe(5);
    expect(await chain.balanceOf(agent.address)).toBe(before - 6n * PRICE);
  });

  it("pays a rewarded resolve through it: the owner pays the reward once, the submitter gets it", async () => {
    const filed = await agent.fetch(url("feedback"), postJson(report(namespace)));
    const { id } = await filed.json();
    const before = await chain.balanceOf(owner.address);
    const res = await owner.fetch(url("resolve"), postJson({ feedbackId: id, rewardAmount: "0.05" }));
    await settledBy(res, owner.address, devnet.x402.refundWallet, 50_000n);
    const body = await res.json();
    expect(body).toMatchObject({ id, resolved: true, reward: { amount: "0.05", recipient: agent.address } });
    expect(await chain.balanceOf(owner.address)).toBe(before - 50_000n);
    const [item] = await (await getDb()).select().from(feedback).where(eq(feedback.id, id));
    expect(item).toMatchObject({ resolved: true, rewardTxHash: body.reward.txHash });
  });
});
