import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { feedback, payments } from "@/lib/db/schema";
import { PAID_WRITES, recoverPaidWrites } from "@/lib/domain/paid-operations";
import { submitFeedbackSchema } from "@/lib/schemas/feedback";
import { resolveFeedbackSchema } from "@/lib/schemas/resolve";
import { createSignInFetch } from "@/scripts/clients/siwx-fetch";
import { createX402Fetch, devnetX402Payer } from "@/scripts/clients/x402-payer";
import { APP, appFetch, postJson, uniqueName } from "@/testing/app-fetch";
import { chainReader } from "@/testing/chain";
import { workerDevnet } from "@/testing/worker-devnet";
import { claimPayment, requestHashOf } from "./ledger";
import { recoverPayments } from "./recover";
import { x402Protocol } from "./x402";

// What an agent is told when it sends a payment again: after a crash, while its first request is
// still open, or after storing failed. The answer follows the ledger, and never invites a second charge.
const devnet = workerDevnet();
const wallet = devnet.accounts[2]!;
const chain = chainReader(devnet.x402.rpcUrl, devnet.x402.asset);
const payer = createX402Fetch({
  privateKey: wallet.privateKey,
  network: devnet.x402.network,
  rpcUrl: devnet.x402.rpcUrl,
  asset: devnet.x402.asset,
  fetch: appFetch,
});
const feedbackUrl = `${APP}/api/namespace/feedback`;
const charge = {
  operation: "feedback",
  method: "POST" as const,
  amountMicroUsd: 10_000n,
  resourceUrl: feedbackUrl,
  description: "Submitting feedback",
};
const body = (namespace = uniqueName("again")) => ({
  namespace,
  type: "bug",
  title: "Lost my answer",
  description: "The connection died before the answer came back.",
});

/** A signed credential for `input`, claimed as a request would claim it, then left there: the crash. */
async function claimedThenCrashed(input: ReturnType<typeof body>) {
  const asked = await appFetch(feedbackUrl, postJson(input));
  const signature = await payer.sign(asked.headers.get("payment-required")!);
  const request = new Request(feedbackUrl, postJson(input, { "payment-signature": signature }));
  const read = await x402Protocol.read(request, charge);
  const claim = await claimPayment(await getDb(), {
    payment: read,
    operation: "feedback",
    lockKey: null,
    request: { ...input, signedIn: null },
    // The hash of the body as the route parsed it, as runPaid takes it.
    requestHash: requestHashOf(submitFeedbackSchema.parse(input)),
  });
  if (!claim.ok) throw new Error("not claimed");
  return { signature, request, paymentId: claim.paymentId };
}

const send = (input: unknown, signature: string) =>
  appFetch(feedbackUrl, postJson(input, { "payment-signature": signature }));
const row = async (paymentId: string) =>
  (await (await getDb()).select().from(payments).where(eq(payments.id, paymentId)))[0]!;

describe("a payment sent again", () => {
  it("while its first request is still open: 503 with the payment id, and do not re-sign", async () => {
    const input = body();
    const { signature, paymentId } = await claimedThenCrashed(input);
    const before = await chain.balanceOf(wallet.address);
    const res = await send(input, signature);
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toBe("30");
    const problem = await res.json();
    expect(problem).toMatchObject({ type: "/problems/payment-pending", paymentId });
    expect(problem.detail).toMatch(/do not sign a new payment/);
    // No fresh challenge: a client that signs from one could pay twice.
    expect(res.headers.get("www-authenticate")).toBeNull();
    expect(res.headers.get("payment-required")).toBeNull();
    expect(await chain.balanceOf(wallet.address)).toBe(before);
  });

  it("after its request died before settling: the same request later settles it, once", async () => {
    const input = body();
    const { signature, paymentId } = await claimedThenCrashed(input);
    // Idle longer than any live request: the attempt that claimed it is gone.
    await (await getDb())
      .update(payments)
      .set({ updatedAt: new Date(Date.now() - 5 * 60_000) })
      .where(eq(payments.id, paymentId));
    const before = await chain.balanceOf(wallet.address);
    const copies = await Promise.all([send(input, signature), send(input, signature)]);
    // One copy takes the claim over and settles it. The other either arrives while that is in
    // progress (503, do not re-sign) or after it is stored (the same answer again): which one
    // depends on timing, and both keep the promise of one charge and one item.
    const texts = await Promise.all(copies.map((r) => r.text()));
    const statuses = copies.map((r) => r.status).sort();
    expect(
      [
        [200, 200],
        [200, 503],
      ],
      texts.join("\n"),
    ).toContainEqual(statuses);
    const answer = JSON.parse(texts[copies.findIndex((r) => r.status === 200)]!);
    if (statuses[1] === 200) expect(JSON.parse(texts[0]!)).toEqual(JSON.parse(texts[1]!));
    else {
      const pending = JSON.parse(texts[copies.findIndex((r) => r.status === 503)]!);
      expect(pending).toMatchObject({ type: "/problems/payment-pending", paymentId });
    }
    expect(await row(paymentId)).toMatchObject({ status: "fulfilled", resultId: answer.id });
    expect(await chain.balanceOf(wallet.address)).toBe(before - 10_000n);
    const again = await send(input, signature);
    expect(await again.json()).toEqual(answer);
    expect(await chain.balanceOf(wallet.address)).toBe(before - 10_000n);
  });

  it("after recovery stored what a crashed request paid for: that answer, once, and no new charge", async () => {
    const input = body();
    const { signature, request, paymentId } = await claimedThenCrashed(input);
    // The money moved, then the process died before storing anything.
    const settlement = await x402Protocol.settleUnverified!(request, charge);
    const before = await chain.balanceOf(wallet.address);
    expect(await recoverPayments(PAID_WRITES, { idleMs: 0, paymentIds: [paymentId] })).toMatchObject({
      settled: 1,
      fulfilled: 1,
    });
    const stored = await row(paymentId);
    expect(stored).toMatchObject({ status: "fulfilled", txRef: settlement.txRef });

    const res = await send(input, signature);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual(stored.response);
    expect((stored.response as { id: string }).id).toBe(stored.resultId);
    const items = await (await getDb())
      .select()
      .from(feedback)
      .where(eq(feedback.namespace, input.namespace));
    expect(items.map((i) => i.id)).toEqual([stored.resultId]);
    expect(await chain.balanceOf(wallet.address)).toBe(before);
  });

  it("after storing failed once the money moved: 503 with the payment id, then the stored answer", async () => {
    const namespace = uniqueName("store-fails");
    const db = await getDb();
    // Storing an item in this namespace fails until the trigger is dropped: the database went away.
    await db.execute(
      sql.raw(`create or replace function refuse_${namespace.replace(/-/g, "_")}() returns trigger
        language plpgsql as $$ begin raise exception 'the database refused the write'; end $$`),
    );
    await db.execute(
      sql.raw(`create trigger refuse_${namespace.replace(/-/g, "_")} before insert on feedback for each row
        when (new.namespace = '${namespace}') execute function refuse_${namespace.replace(/-/g, "_")}()`),
    );
    const input = body(namespace);
    const asked = await appFetch(feedbackUrl, postJson(input));
    const signature = await payer.sign(asked.headers.get("payment-required")!);
    const before = await chain.balanceOf(wallet.address);

    const res = await send(input, signature);
    expect(res.status).toBe(503);
    const problem = await res.json();
    expect(problem).toMatchObject({ type: "/problems/payment-pending", paymentId: expect.any(String) });
    expect(problem.detail).toMatch(/Your payment settled/);
    expect(await chain.balanceOf(wallet.address)).toBe(before - 10_000n);
    expect(await row(problem.paymentId)).toMatchObject({
      status: "settled",
      txRef: expect.stringMatching(/^0x/),
    });

    await db.execute(sql.raw(`drop trigger refuse_${namespace.replace(/-/g, "_")} on feedback`));
    expect(await recoverPayments(PAID_WRITES, { idleMs: 0, paymentIds: [problem.paymentId] })).toMatchObject({
      fulfilled: 1,
      errors: 0,
    });
    const again = await send(input, signature);
    expect(again.status).toBe(200);
    expect((await again.json()).namespace).toBe(namespace);
    expect(await chain.balanceOf(wallet.address)).toBe(before - 10_000n);
  });
});

describe("a rewarded resolve whose payment never settled", () => {
  it("is failed by recovery and its item released in the same step, so the owner can resolve it", async () => {
    const owner = devnetX402Payer(devnet, 6, appFetch);
    const namespace = uniqueName("held");
    expect((await owner.fetch(`${APP}/api/namespace/register`, postJson({ namespace }))).status).toBe(200);
    const submitted = await payer.fetch(feedbackUrl, postJson(body(namespace)));
    const { id } = await submitted.json();

    const resolveUrl = `${APP}/api/namespace/resolve`;
    const input = { feedbackId: id, message: "Thanks", rewardAmount: "0.1" };
    const asked = await appFetch(resolveUrl, postJson(input));
    expect(asked.status).toBe(402);
    const signature = await owner.sign(asked.headers.get("payment-required")!);
    const request = new Request(resolveUrl, postJson(input, { "payment-signature": signature }));
    const resolveCharge = {
      ...charge,
      operation: "resolve",
      amountMicroUsd: 100_000n,
      resourceUrl: resolveUrl,
    };
    resolveCharge.description = "Resolving with a 0.1 USD reward";
    const db = await getDb();
    const claim = await claimPayment(db, {
      payment: await x402Protocol.read(request, resolveCharge),
      operation: "resolve",
      lockKey: `resolve:${id}`,
      request: { ...input, resolver: null, rewardMicroUsd: "100000" },
      requestHash: requestHashOf(resolveFeedbackSchema.parse(input)),
      reserve: async (tx, paymentId) => {
        await tx.update(feedback).set({ resolvingPaymentId: paymentId }).where(eq(feedback.id, id));
      },
    });
    if (!claim.ok) throw new Error("not claimed");
    // The process died; the credential then expired unused.
    await db
      .update(payments)
      .set({ expiresAt: new Date(Date.now() - 120_000) })
      .where(eq(payments.id, claim.paymentId));

    expect(await recoverPayments(PAID_WRITES, { idleMs: 0, paymentIds: [claim.paymentId] })).toMatchObject({
      failed: 1,
    });
    const [item] = await db.select().from(feedback).where(eq(feedback.id, id));
    expect(item).toMatchObject({ resolved: false, resolvingPaymentId: null });
    const reader = createSignInFetch(devnet.accounts[6]!.privateKey, appFetch);
    const free = await reader.fetch(resolveUrl, postJson({ feedbackId: id, message: "Fixed" }));
    expect(free.status).toBe(200);
  });

  it("left held by a payment an older version failed without releasing it: released by the next pass", async () => {
    const db = await getDb();
    const namespace = uniqueName("stale");
    const submitted = await payer.fetch(feedbackUrl, postJson(body(namespace)));
    const { id } = await submitted.json();
    const { paymentId } = await claimedThenCrashed(body());
    // What the old recovery did: the claim failed, the item still held by it.
    await db.update(feedback).set({ resolvingPaymentId: paymentId }).where(eq(feedback.id, id));
    await db.update(payments).set({ status: "failed" }).where(eq(payments.id, paymentId));

    expect((await recoverPaidWrites()).released).toBeGreaterThanOrEqual(1);
    const [item] = await db.select().from(feedback).where(eq(feedback.id, id));
    expect(item!.resolvingPaymentId).toBeNull();
  });
});
