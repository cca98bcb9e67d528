import { eq } from "drizzle-orm";
import { generatePrivateKey } from "viem/accounts";
import { describe, expect, inject, it } from "vitest";
import { createX402Fetch } from "@/lib/clients/x402-payer";
import { getDb } from "@/lib/db/client";
import { feedback, payments, payouts } from "@/lib/db/schema";
import { claimPayment } from "@/lib/payment/ledger";
import { commitPaid } from "@/lib/payment/paid";
import { x402Protocol } from "@/lib/payment/x402";
import { APP, appFetch, postJson, uniqueName } from "@/lib/testing/app-fetch";
import { chainReader } from "@/lib/testing/chain";
import { x402Requirement } from "@/lib/testing/rewards";
import { commitRewardedResolve, type RewardedResolveInput } from "./resolve-with-reward";
import { settlePayout } from "./settle-payout";

// This file's payout wallet holds nothing: every reward it owes must end in a refund.
process.env.PAYOUT_PRIVATE_KEY = generatePrivateKey();

const devnet = inject("devnet");
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

describe("a reward that cannot be paid", () => {
  it("is refunded to the resolver, leaves the item open and shows in the ledger", async () => {
    const namespace = uniqueName("refund");
    expect((await owner.fetch(`${APP}/api/namespace/register`, postJson({ namespace }))).status).toBe(200);
    const submitted = await agent.fetch(
      `${APP}/api/namespace/feedback`,
      postJson({ namespace, type: "bug", title: "Tip me", description: "The payout wallet is empty." }),
    );
    const { id } = await submitted.json();

    // The refusal a request would get, before any charge.
    const asked = await owner.fetch(
      `${APP}/api/namespace/resolve`,
      postJson({ feedbackId: id, rewardAmount: "0.3" }),
    );
    expect(asked.status).toBe(503);

    // The wallet emptied between that check and the payout: run the paid write's steps as a request would.
    const url = `${APP}/api/namespace/resolve`;
    const signature = await owner.sign(x402Requirement(devnet, url, 300_000n));
    const charge = {
      operation: "resolve",
      method: "POST" as const,
      amountMicroUsd: 300_000n,
      resourceUrl: url,
      description: "t",
    };
    const payment = await x402Protocol.verify(
      new Request(url, { headers: { "payment-signature": signature } }),
      charge,
    );
    const db = await getDb();
    const input: RewardedResolveInput = {
      feedbackId: id,
      message: "Thanks",
      rewardAmount: "0.3",
      resolver: null,
      rewardMicroUsd: "300000",
    };
    const claim = await claimPayment(db, {
      payment,
      operation: "resolve",
      lockKey: `resolve:${id}`,
      request: input,
      reserve: async (tx, paymentId) => {
        await tx.update(feedback).set({ resolvingPaymentId: paymentId }).where(eq(feedback.id, id));
      },
    });
    if (!claim.ok) throw new Error("claim refused");
    const before = await evm.balanceOf(owner.address);
    const { txRef } = await payment.settle();
    expect(await evm.balanceOf(owner.address)).toBe(before - 300_000n);
    await commitPaid((ctx) => commitRewardedResolve(input, ctx), {
      db,
      paymentId: claim.paymentId,
      txRef,
      payer: payment.payer,
      protocol: "x402",
    });

    const outcome = await settlePayout(id);
    expect(outcome).toMatchObject({
      status: "refunded",
      reason: "the payout wallet cannot cover the reward",
    });
    expect(await evm.balanceOf(owner.address)).toBe(before);
    const [item] = await db.select().from(feedback).where(eq(feedback.id, id));
    expect(item).toMatchObject({ resolved: false, rewardAmount: null, resolvingPaymentId: null });
    const [ledger] = await db.select().from(payments).where(eq(payments.id, claim.paymentId));
    expect(ledger).toMatchObject({ status: "refunded", refundTxRef: expect.stringMatching(/^0x/) });
    const [payout] = await db.select().from(payouts).where(eq(payouts.feedbackId, id));
    expect(payout!.status).toBe("refunded");
    // Settling again changes nothing: the refund happened once.
    expect(await settlePayout(id)).toMatchObject({ status: "refunded" });
    expect(await evm.balanceOf(owner.address)).toBe(before);
  });
});
