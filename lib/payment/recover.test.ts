import { eq } from "drizzle-orm";
import { describe, expect, inject, it } from "vitest";
import { createX402Fetch } from "@/lib/clients/x402-payer";
import { getDb } from "@/lib/db/client";
import { feedback, payments } from "@/lib/db/schema";
import { PAID_COMMITS } from "@/lib/domain/paid-operations";
import { APP, appFetch, postJson, uniqueName } from "@/lib/testing/app-fetch";
import { chainReader } from "@/lib/testing/chain";
import { claimPayment, markSettled } from "./ledger";
import { PRICES } from "./prices";
import { recoverPayments } from "./recover";
import { x402Protocol } from "./x402";

const devnet = inject("devnet");
const wallet = devnet.accounts[5]!;
const chain = chainReader(devnet.x402.rpcUrl, devnet.x402.asset as `0x${string}`);
const payer = createX402Fetch({
  privateKey: wallet.privateKey as `0x${string}`,
  network: devnet.x402.network as `${string}:${string}`,
  rpcUrl: devnet.x402.rpcUrl,
  asset: devnet.x402.asset,
  fetch: appFetch,
});
const url = `${APP}/api/namespace/feedback`;
const charge = {
  operation: "feedback",
  method: "POST" as const,
  amountMicroUsd: PRICES.feedback,
  resourceUrl: url,
  description: "Submitting feedback",
};

/** Verifies and claims a real signed payment exactly as a request would, then stops: the "crash". */
async function claimedPayment() {
  const input = {
    namespace: uniqueName(),
    type: "bug",
    title: "Crashed",
    description: "The server died mid-payment.",
  };
  const first = await appFetch(url, postJson(input));
  const signature = await payer.sign(first.headers.get("payment-required")!);
  const payment = await x402Protocol.verify(
    new Request(url, postJson(input, { "payment-signature": signature })),
    charge,
  );
  const db = await getDb();
  const claim = await claimPayment(db, {
    payment,
    operation: "feedback",
    lockKey: null,
    request: { ...input, signedIn: null },
  });
  if (!claim.ok) throw new Error("claim refused");
  return { db, payment, paymentId: claim.paymentId, input };
}

const recover = (paymentId: string) => recoverPayments(PAID_COMMITS, { idleMs: 0, paymentIds: [paymentId] });
const itemsFor = async (paymentId: string) =>
  (await getDb()).select().from(feedback).where(eq(feedback.paymentId, paymentId));
const ledgerRow = async (paymentId: string) =>
  (await (await getDb()).select().from(payments).where(eq(payments.id, paymentId)))[0]!;

describe("recovering paid writes after a crash", () => {
  it("stores the write of a payment that settled before the process died, exactly once", async () => {
    const { db, payment, paymentId, input } = await claimedPayment();
    const settlement = await payment.settle();
    await markSettled(db, paymentId, settlement.txRef);

    expect(await recover(paymentId)).toMatchObject({ fulfilled: 1, errors: 0 });
    const items = await itemsFor(paymentId);
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({ namespace: input.namespace, submitterWallet: wallet.address });
    expect(await recover(paymentId)).toMatchObject({ fulfilled: 0 });
    expect(await itemsFor(paymentId)).toHaveLength(1);
    expect((await ledgerRow(paymentId)).status).toBe("fulfilled");
  });

  it("finds on chain a settlement whose answer was lost, then stores the write", async () => {
    const { payment, paymentId } = await claimedPayment();
    const settlement = await payment.settle();

    expect(await recover(paymentId)).toMatchObject({ settled: 1, fulfilled: 1, errors: 0 });
    expect((await ledgerRow(paymentId)).txRef).toBe(settlement.txRef);
    expect(await itemsFor(paymentId)).toHaveLength(1);
  });

  it("leaves a claim that may still settle, and fails one whose credential expired unused", async () => {
    const { db, paymentId } = await claimedPayment();
    const before = await chain.balanceOf(wallet.address);
    expect(await recover(paymentId)).toMatchObject({ pending: 1 });

    await db
      .update(payments)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(payments.id, paymentId));
    expect(await recover(paymentId)).toMatchObject({ failed: 1 });
    expect((await ledgerRow(paymentId)).status).toBe("failed");
    expect(await itemsFor(paymentId)).toHaveLength(0);
    expect(await chain.balanceOf(wallet.address)).toBe(before);
  });
});
