import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { feedback, namespaces, payments, webhookDeliveries } from "@/lib/db/schema";
import { submitFeedback } from "@/lib/domain/feedback/submit-feedback";
import { PAID_WRITES } from "@/lib/domain/paid-operations";
import { submitFeedbackSchema } from "@/lib/schemas/feedback";
import { OPERATIONS } from "@/lib/schemas/operations/catalog";
import { createX402Fetch } from "@/scripts/clients/x402-payer";
import { APP, appFetch, postJson, uniqueName } from "@/testing/app-fetch";
import { chainReader } from "@/testing/chain";
import { workerDevnet } from "@/testing/worker-devnet";
import { commitPaid } from "./commit-paid";
import { claimPayment, markSettled, NotAwaitingFulfilment, requestHashOf } from "./ledger";
import { recoverPayments } from "./recover";
import type { PaidContext } from "./types";
import { x402Protocol } from "./x402";

const devnet = workerDevnet();
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
  amountMicroUsd: OPERATIONS.feedback.price,
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
  const request = new Request(url, postJson(input, { "payment-signature": signature }));
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
  return { db, payment, paymentId: claim.paymentId, input };
}

const recover = (paymentId: string) => recoverPayments(PAID_WRITES, { idleMs: 0, paymentIds: [paymentId] });
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
      // Long enough ago that no block still to come can be older (see lapsed() in lib/chain/blocks.ts).
      .set({ expiresAt: new Date(Date.now() - 120_000) })
      .where(eq(payments.id, paymentId));
    expect(await recover(paymentId)).toMatchObject({ failed: 1 });
    expect((await ledgerRow(paymentId)).status).toBe("failed");
    expect(await itemsFor(paymentId)).toHaveLength(0);
    expect(await chain.balanceOf(wallet.address)).toBe(before);
  });
});

describe("storing a settled write", () => {
  it("fulfils the claimed row with its settlement in one statement, and stores a write once", async () => {
    const { db, payment, paymentId, input } = await claimedPayment();
    // A registered namespace with a webhook, so the statement also writes the outbox row.
    await db.insert(namespaces).values({
      name: input.namespace,
      ownerWallet: wallet.address,
      paymentId: `pay_test_${input.namespace}`,
      webhookUrl: "https://hooks.example/feedback",
      webhookSecret: "whsec_test",
      createdAt: new Date(),
    });
    const { txRef } = await payment.settle();
    const ctx = {
      db,
      paymentId,
      txRef,
      payer: payment.payer,
      payerContractOn: payment.payerContractOn,
      protocol: payment.protocol,
    };
    const item = submitFeedbackSchema.parse(input);
    const commit = (c: PaidContext) => submitFeedback({ ...item, signedIn: null }, c);

    const stored = await commitPaid(commit, ctx);
    expect(stored.body).toMatchObject({ namespace: input.namespace, registered: true });
    const ledger = await ledgerRow(paymentId);
    expect(ledger).toMatchObject({ status: "fulfilled", txRef, resultId: stored.resultId });
    expect(ledger.request).toEqual({ ...input, signedIn: null });
    expect(ledger.expiresAt).toBeInstanceOf(Date);
    // Fields the submitter left out are SQL NULL, not JSON null or a default.
    const [absent] = await db
      .select({
        steps: sql<boolean>`${feedback.steps} is null`,
        metadata: sql<boolean>`${feedback.metadata} is null`,
        severity: feedback.severity,
        expected: feedback.expected,
        verified: feedback.verified,
      })
      .from(feedback)
      .where(eq(feedback.id, stored.resultId));
    expect(absent).toEqual({ steps: true, metadata: true, severity: null, expected: null, verified: false });
    const outbox = () =>
      db.select().from(webhookDeliveries).where(eq(webhookDeliveries.namespace, input.namespace));
    expect((await outbox()).map((d) => [d.eventType, (d.payload.data as { id: string }).id])).toEqual([
      ["feedback.created", stored.resultId],
    ]);

    // A second store for the same payment (a retry, recovery racing the request) is refused whole.
    await expect(commitPaid(commit, ctx)).rejects.toBeInstanceOf(NotAwaitingFulfilment);
    expect(await itemsFor(paymentId)).toHaveLength(1);
    expect(await outbox()).toHaveLength(1);
    expect(await ledgerRow(paymentId)).toMatchObject({ status: "fulfilled", resultId: stored.resultId });
  });

  it("stores every field of an item as it was given", async () => {
    const { db, payment, paymentId, input } = await claimedPayment();
    const { txRef } = await payment.settle();
    const ctx = {
      db,
      paymentId,
      txRef,
      payer: payment.payer,
      payerContractOn: payment.payerContractOn,
      protocol: payment.protocol,
    };
    const item = submitFeedbackSchema.parse({
      ...input,
      severity: "high",
      steps: ["Open the inbox", "Filter by bug"],
      expected: "Bugs only",
      actual: "Everything",
      context: "Dashboard",
      metadata: { url: "https://example.com/inbox", nested: { n: 1, flag: true } },
    });
    const stored = await commitPaid((c) => submitFeedback({ ...item, signedIn: null }, c), ctx);

    const [row] = await itemsFor(paymentId);
    expect(row).toMatchObject({
      id: stored.resultId,
      severity: "high",
      steps: item.steps,
      expected: "Bugs only",
      actual: "Everything",
      context: "Dashboard",
      metadata: item.metadata,
      submitterWallet: payment.payer,
    });
    expect(row!.createdAt.toISOString()).toBe(stored.body.createdAt);
  });

  it("records the settlement when storing fails, so recovery finishes the write from the ledger", async () => {
    const { db, payment, paymentId } = await claimedPayment();
    const { txRef } = await payment.settle();
    const ctx = {
      db,
      paymentId,
      txRef,
      payer: payment.payer,
      payerContractOn: payment.payerContractOn,
      protocol: payment.protocol,
    };
    const failing = async () => {
      throw new Error("the database went away");
    };
    await expect(commitPaid(failing, ctx)).rejects.toThrow("the database went away");
    expect(await ledgerRow(paymentId)).toMatchObject({ status: "settled", txRef });
    expect(await itemsFor(paymentId)).toHaveLength(0);

    // No chain lookup is needed: the row is already settled, so recovery only stores the write.
    expect(await recover(paymentId)).toMatchObject({ settled: 0, fulfilled: 1, errors: 0 });
    expect(await itemsFor(paymentId)).toHaveLength(1);
    expect(await ledgerRow(paymentId)).toMatchObject({ status: "fulfilled", txRef });
  });
});
