import { eq } from "drizzle-orm";
import { type Hash, parseEventLogs, toHex } from "viem";
import { generatePrivateKey } from "viem/accounts";
import { getTransactionReceipt, readContract } from "viem/actions";
import { Abis } from "viem/tempo";
import { describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { feedback, payments, payouts } from "@/lib/db/schema";
import { leaseRefundWallet, sendX402Refund } from "@/lib/payment/refund";
import { createMppFetch } from "@/scripts/clients/mpp-payer";
import { createSignInFetch } from "@/scripts/clients/siwx-fetch";
import { createX402Fetch } from "@/scripts/clients/x402-payer";
import { tempoClient } from "@/scripts/devnet/tempo";
import { APP, appFetch, postJson, uniqueName } from "@/testing/app-fetch";
import { chainReader } from "@/testing/chain";
import {
  fundTempoWallet,
  mppRewardPayment,
  storeRewardedResolve,
  x402RewardPayment,
} from "@/testing/rewards";
import { distinctTitle } from "@/testing/titles";
import { workerDevnet } from "@/testing/worker-devnet";
import { settlePayout } from "./settle-payout";

// This file's payout wallet holds no USDC.e: every reward it owes must end in a refund.
const payoutKey = generatePrivateKey();
process.env.PAYOUT_PRIVATE_KEY = payoutKey;

const devnet = workerDevnet();
const evm = chainReader(devnet.x402.rpcUrl, devnet.x402.asset as `0x${string}`);
const payerFor = (i: number) =>
  createX402Fetch({
    privateKey: devnet.accounts[i]!.privateKey as `0x${string}`,
    network: devnet.x402.network as `${string}:${string}`,
    rpcUrl: devnet.x402.rpcUrl,
    asset: devnet.x402.asset,
    fetch: appFetch,
  });
const owner = payerFor(1);
const agent = payerFor(5);
const url = `${APP}/api/namespace/resolve`;
const ownerMpp = createMppFetch(devnet.tempo, devnet.accounts[1]!.privateKey as `0x${string}`, appFetch);
const tempo = tempoClient(devnet.tempo);
const usdcE = (who: string) =>
  readContract(tempo, {
    address: devnet.tempo.currency,
    abi: Abis.tip20,
    functionName: "balanceOf",
    args: [who as Hash],
  });

async function newItem(namespace: string) {
  const submitted = await agent.fetch(
    `${APP}/api/namespace/feedback`,
    postJson({
      namespace,
      type: "bug",
      title: distinctTitle("Tip me"),
      description: "The payout wallet is empty.",
    }),
  );
  return (await submitted.json()).id as string;
}

/** A rewarded resolve paid with x402 and stored, for a payout wallet emptied after the balance check. */
const paidResolve = async (id: string, reward: bigint) =>
  storeRewardedResolve(await x402RewardPayment(devnet, owner, reward), id, reward);

describe("a reward that cannot be paid", () => {
  it("is refunded to the resolver, leaves the item open and shows in the ledger", async () => {
    const namespace = uniqueName("refund");
    expect((await owner.fetch(`${APP}/api/namespace/register`, postJson({ namespace }))).status).toBe(200);
    const id = await newItem(namespace);

    // The refusal a request would get, before any charge.
    const asked = await owner.fetch(url, postJson({ feedbackId: id, rewardAmount: "0.3" }));
    expect(asked.status).toBe(503);

    const before = await evm.balanceOf(owner.address);
    const paymentId = await paidResolve(id, 300_000n);
    expect(await evm.balanceOf(owner.address)).toBe(before - 300_000n);

    const outcome = await settlePayout(id);
    expect(outcome).toMatchObject({
      status: "refunded",
      reason: "the payout wallet cannot cover the reward",
    });
    expect(await evm.balanceOf(owner.address)).toBe(before);
    const db = await getDb();
    const [item] = await db.select().from(feedback).where(eq(feedback.id, id));
    expect(item).toMatchObject({ resolved: false, rewardAmount: null, resolvingPaymentId: null });
    const [ledger] = await db.select().from(payments).where(eq(payments.id, paymentId));
    expect(ledger).toMatchObject({ status: "refunded", refundTxRef: expect.stringMatching(/^0x/) });
    const [payout] = await db.select().from(payouts).where(eq(payouts.feedbackId, id));
    expect(payout!.status).toBe("refunded");
    // Settling again changes nothing: the refund happened once.
    expect(await settlePayout(id)).toMatchObject({ status: "refunded" });
    expect(await evm.balanceOf(owner.address)).toBe(before);

    // The refund is the token's own single-use authorization: sent again, it can only revert.
    expect(await leaseRefundWallet()).toBe(true);
    const target = { paymentId, payer: owner.address, amount: 300_000n };
    await expect(sendX402Refund(target)).rejects.toThrow(/authorization is used or canceled/);
    expect(await evm.balanceOf(owner.address)).toBe(before);
    const again = await settlePayout(id);
    expect(again).toMatchObject({ status: "refunded", refundTxHash: ledger!.refundTxRef });

    // The reopened item can be resolved again.
    const reader = createSignInFetch(devnet.accounts[1]!.privateKey, appFetch);
    expect((await reader.fetch(url, postJson({ feedbackId: id, message: "Fixed anyway" }))).status).toBe(200);
  });

  it("refunds several resolvers at once from one wallet, each exactly once", async () => {
    const namespace = uniqueName("refunds");
    expect((await owner.fetch(`${APP}/api/namespace/register`, postJson({ namespace }))).status).toBe(200);
    const ids = [await newItem(namespace), await newItem(namespace), await newItem(namespace)];
    const before = await evm.balanceOf(owner.address);
    for (const id of ids) await paidResolve(id, 100_000n);
    expect(await evm.balanceOf(owner.address)).toBe(before - 300_000n);

    // Concurrent refunds from one key share one nonce manager: none collides, none is lost.
    const outcomes = await Promise.all(ids.map((id) => settlePayout(id)));
    expect(outcomes.map((o) => o.status)).toEqual(["refunded", "refunded", "refunded"]);
    expect(new Set(outcomes.map((o) => (o as { refundTxHash: string }).refundTxHash)).size).toBe(3);
    expect(await evm.balanceOf(owner.address)).toBe(before);
  });

  it("lets an item whose reward was refunded be rewarded again, with a payout of its own", async () => {
    const namespace = uniqueName("again");
    expect((await owner.fetch(`${APP}/api/namespace/register`, postJson({ namespace }))).status).toBe(200);
    const id = await newItem(namespace);
    await paidResolve(id, 100_000n);
    expect(await settlePayout(id)).toMatchObject({ status: "refunded" });
    // A second rewarded resolve of the same item: a new payout row, the old one stays refunded.
    await paidResolve(id, 200_000n);
    const rows = await (await getDb()).select().from(payouts).where(eq(payouts.feedbackId, id));
    expect(rows.map((r) => [r.amount, r.status]).sort()).toEqual([
      ["100000", "refunded"],
      ["200000", "pending"],
    ]);
    expect(await settlePayout(id)).toMatchObject({ status: "refunded" });
  });

  it("pays back two MPP resolves of one item within a minute, each with a refund of its own", async () => {
    const namespace = uniqueName("mpp-refunds");
    expect((await owner.fetch(`${APP}/api/namespace/register`, postJson({ namespace }))).status).toBe(200);
    const id = await newItem(namespace);
    await fundTempoWallet(devnet, payoutKey, { fees: true });
    const refunds: string[] = [];
    for (const reward of [150_000n, 150_000n]) {
      const before = await usdcE(ownerMpp.address);
      const paymentId = await storeRewardedResolve(await mppRewardPayment(ownerMpp, reward), id, reward);
      expect(await usdcE(ownerMpp.address)).toBe(before - reward);
      // The reward cannot be paid, nor refunded until an operator tops the payout wallet up.
      expect(await settlePayout(id)).toEqual({ status: "pending" });
      await fundTempoWallet(devnet, payoutKey, { usdcE: reward });
      const outcome = await settlePayout(id);
      expect(outcome).toMatchObject({ status: "refunded" });
      const { refundTxHash } = outcome as { refundTxHash: Hash };
      expect(await usdcE(ownerMpp.address)).toBe(before);
      // The refund names the payment it pays back (readable on any explorer), so no other refund of the
      // item can stand for it.
      const memo = toHex(`refund:${paymentId}`, { size: 32 });
      const receipt = await getTransactionReceipt(tempo, { hash: refundTxHash });
      const sent = parseEventLogs({ abi: Abis.tip20, logs: receipt.logs, eventName: "TransferWithMemo" });
      expect(sent.map((l) => l.args)).toEqual([
        { from: expect.any(String), to: ownerMpp.address, amount: reward, memo },
      ]);
      const [ledger] = await (await getDb()).select().from(payments).where(eq(payments.id, paymentId));
      expect(ledger).toMatchObject({ status: "refunded", refundTxRef: refundTxHash });
      refunds.push(refundTxHash);
    }
    expect(new Set(refunds).size).toBe(2);
    const [item] = await (await getDb()).select().from(feedback).where(eq(feedback.id, id));
    expect(item).toMatchObject({ resolved: false, resolvingPaymentId: null });
  }, 90_000);
});
