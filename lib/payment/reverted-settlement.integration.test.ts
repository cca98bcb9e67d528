import { eq, sql } from "drizzle-orm";
import {
  createTestClient,
  createWalletClient,
  erc20Abi,
  type Hash,
  http,
  parseSignature,
  publicActions,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { eip3009Abi } from "@/lib/chain/eip3009";
import { getDb } from "@/lib/db/client";
import { payments } from "@/lib/db/schema";
import { PAID_WRITES } from "@/lib/domain/paid-operations";
import { devnetAppEnv } from "@/scripts/devnet/app-env";
import { startDevnet } from "@/scripts/devnet/start-devnet";
import { uniqueName } from "@/testing/app-fetch";
import { chainReader } from "@/testing/chain";
import { answerChecks, paidCall, until } from "@/testing/paid-call";
import { distinctTitle } from "@/testing/titles";
import { waitingTransaction } from "@/testing/txpool";
import { recoverPayments } from "./recover";

// Our own facilitator's settlement reverts on chain (the payer's balance left between its gas estimate and
// its block). A reverted transferWithAuthorization leaves the nonce unused and the signed authorization
// public in its calldata: the claim stays open until the chain shows it used (stored once) or expired.
// A devnet of this file's own, with instant mining switched off and blocks mined here by hand.
const own = await startDevnet({ appUrl: "http://localhost:3000" });
const devnet = own.info;
Object.assign(process.env, devnetAppEnv(devnet));
afterAll(() => own.stop());

const chain = createTestClient({ mode: "anvil", transport: http(devnet.x402.rpcUrl) }).extend(publicActions);
const WALLET = 5;
const PARKING = 6;
const { balance, paid, problem, PRICE } = answerChecks(devnet, WALLET);
const tokens = chainReader(devnet.x402.rpcUrl, devnet.x402.asset);
const parked = () => tokens.balanceOf(devnet.accounts[PARKING]!.address);
let parkedAtStart: bigint;
beforeAll(async () => {
  parkedAtStart = await parked();
});
// Whatever a test drained from the payer goes back, however it ended.
afterEach(async () => {
  const excess = (await parked()) - parkedAtStart;
  if (excess > 0n) await chain.waitForTransactionReceipt({ hash: await move(PARKING, WALLET, excess) });
});
const submission = (lifetimeSeconds?: number) =>
  paidCall(
    devnet,
    WALLET,
    "feedback",
    {
      namespace: uniqueName("reverted"),
      type: "bug",
      title: distinctTitle("Reverted settlement"),
      description: "Paid with an authorization whose settlement reverted.",
    },
    lifetimeSeconds,
  );

const walletOf = (index: number) =>
  createWalletClient({
    account: privateKeyToAccount(devnet.accounts[index]!.privateKey),
    transport: http(devnet.x402.rpcUrl),
  });

/** Moves `value` USDC from wallet `from` to wallet `to`; with `first`, ahead of anything waiting for a block. */
function move(from: number, to: number, value: bigint, first = false) {
  return walletOf(from).writeContract({
    chain: null,
    address: devnet.x402.asset,
    abi: erc20Abi,
    functionName: "transfer",
    args: [devnet.accounts[to]!.address, value],
    gas: 100_000n,
    ...(first ? { maxFeePerGas: 500_000_000_000n, maxPriorityFeePerGas: 400_000_000_000n } : {}),
  });
}

/**
 * Sends the call and makes its settlement revert: once the facilitator's transaction waits for a block (its
 * gas estimate passed), the payer moves its whole balance away ahead of it in the same block. The answer.
 */
async function sentAndReverted(call: Awaited<ReturnType<typeof submission>>) {
  await chain.setAutomine(false);
  await chain.setIntervalMining({ interval: 0 });
  try {
    const answering = call.send();
    const settlement = await waitingTransaction(chain);
    const all = await balance();
    await move(WALLET, PARKING, all, true);
    await chain.mine({ blocks: 1 });
    expect((await chain.getTransactionReceipt({ hash: settlement })).status).toBe("reverted");
    return { answer: await answering, drained: all };
  } finally {
    await chain.setAutomine(true);
  }
}

/** Anyone (wallet 2 here) sends the authorization as signed, read from the credential: it is public. */
async function replayed(signature: string): Promise<Hash> {
  const { payload } = JSON.parse(Buffer.from(signature, "base64").toString());
  const { from, to, value, validAfter, validBefore, nonce } = payload.authorization;
  const { v, r, s } = parseSignature(payload.signature);
  const hash = await walletOf(2).writeContract({
    chain: null,
    address: devnet.x402.asset,
    abi: eip3009Abi,
    functionName: "transferWithAuthorization",
    args: [from, to, BigInt(value), BigInt(validAfter), BigInt(validBefore), nonce, Number(v), r, s],
    gas: 200_000n,
  });
  expect((await chain.waitForTransactionReceipt({ hash })).status).toBe("success");
  return hash;
}

/** The claim left as if its request's attempt had died long ago, so a resend may take it over. */
async function idle(paymentId: string) {
  await (await getDb())
    .update(payments)
    .set({ updatedAt: sql`now() - interval '1 hour'` })
    .where(eq(payments.id, paymentId));
}

describe("an x402 settlement that reverts on chain", () => {
  it("answers pending, keeps the claim open, and stores the write once the authorization lands later", async () => {
    const before = await balance();
    const call = await submission();
    const { answer, drained } = await sentAndReverted(call);
    const { paymentId, detail } = await problem(answer.clone(), 503, "payment-pending");
    expect(detail).toMatch(/reverted/);
    expect(detail).toMatch(/do not sign a new payment/);
    expect(answer.headers.get("retry-after")).toMatch(/^\d+$/);
    // No fresh challenge: a client that signs from one could pay twice.
    expect(answer.headers.get("payment-required")).toBeNull();
    expect(await call.row()).toMatchObject({ id: paymentId, status: "claimed" });
    expect(await call.spent()).toBe(false);

    // Sent again while the claim is open: the same pending answer, nothing charged.
    await problem(await call.send(), 503, "payment-pending");
    // Sent again once the claim is idle, the balance still gone: settling again is refused before sending,
    // and the claim still stays open, since the authorization can still land.
    await idle(paymentId);
    const retaken = await problem(await call.send(), 503, "payment-pending");
    expect(retaken.paymentId).toBe(paymentId);
    expect(await call.row()).toMatchObject({ id: paymentId, status: "claimed" });
    expect(await call.stored()).toBe(0);

    // The payer is funded again and someone lands the public authorization: recovery stores the write.
    await chain.waitForTransactionReceipt({ hash: await move(PARKING, WALLET, drained) });
    const landed = await replayed(call.signature);
    expect(await recoverPayments(PAID_WRITES, { idleMs: 0, paymentIds: [paymentId] })).toMatchObject({
      settled: 1,
      fulfilled: 1,
      errors: 0,
    });
    expect(await call.row()).toMatchObject({ status: "fulfilled", txRef: landed });
    expect(await call.stored()).toBe(1);
    // The same credential now gets the stored answer, naming the transaction that paid.
    expect(await paid(await call.send())).toBe(landed);
    expect(await call.stored()).toBe(1);
    expect(await balance()).toBe(before - PRICE);
  });

  it("fails the claim once the authorization expired unused: nothing charged, nothing stored", async () => {
    const before = await balance();
    const call = await submission(12);
    const { answer, drained } = await sentAndReverted(call);
    const { paymentId } = await problem(answer, 503, "payment-pending");
    await chain.waitForTransactionReceipt({ hash: await move(PARKING, WALLET, drained) });
    expect(await call.row()).toMatchObject({ id: paymentId, status: "claimed" });
    await until(async () => {
      await chain.mine({ blocks: 1 }); // a head as fresh as a real chain's
      await recoverPayments(PAID_WRITES, { idleMs: 0, paymentIds: [paymentId] });
      return (await call.row())?.status === "failed";
    }, "recovery to fail the claim once its authorization expired");
    await problem(await call.send(), 402, "settlement-failed");
    expect(await call.spent()).toBe(false);
    expect(await call.stored()).toBe(0);
    expect(await balance()).toBe(before);
  });
});
