import {
  createPublicClient,
  createWalletClient,
  erc20Abi,
  type Hash,
  type Hex,
  http,
  parseSignature,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, describe, expect, it } from "vitest";
import { eip3009Abi } from "@/lib/chain/eip3009";
import { PAID_WRITES, recoverPaidWrites } from "@/lib/domain/paid-operations";
import { extraFacilitators } from "@/scripts/devnet/accounts";
import { uniqueName } from "@/testing/app-fetch";
import { type FrontFault, PASS, startFacilitatorFront } from "@/testing/facilitator-front";
import { startFacilitatorProcess } from "@/testing/facilitator-process";
import { answerChecks, paidCall, until } from "@/testing/paid-call";
import { distinctTitle } from "@/testing/titles";
import { workerDevnet } from "@/testing/worker-devnet";
import { recoverPayments } from "./recover";

// A remote facilitator that lies, through a front that rewrites its answers: the service believes a
// settlement only when the receipt proves this credential's transfer; a failure decides nothing until the
// chain shows the credential spent (stored) or expired unspent (failed).
const devnet = workerDevnet();
const WALLET = 5;
const facilitator = await startFacilitatorProcess({
  rpcUrl: devnet.x402.rpcUrl,
  network: devnet.x402.network,
  privateKey: extraFacilitators[0]!.privateKey,
});
const front = await startFacilitatorFront(facilitator.url);
delete process.env.X402_FACILITATOR_PRIVATE_KEY;
process.env.X402_FACILITATOR_URL = front.url;
// Recovery takes up a claim idle three times this long: a few seconds, not a minute.
process.env.X402_TIMEOUT_MS = "3000";
afterAll(async () => {
  delete process.env.X402_FACILITATOR_URL;
  delete process.env.X402_TIMEOUT_MS;
  await Promise.all([facilitator.crash(), front.close()]);
});

const { balance, paid, problem, PRICE } = answerChecks(devnet, WALLET);
const submission = (lifetimeSeconds?: number) =>
  paidCall(
    devnet,
    WALLET,
    "feedback",
    {
      namespace: uniqueName("lies"),
      type: "bug",
      title: distinctTitle("Facilitator lie"),
      description: "Paid through a facilitator that lies.",
    },
    lifetimeSeconds,
  );
const onSettle = (fault: FrontFault) =>
  front.setPolicy((call) => (call.route === "POST /settle" ? fault : { kind: "pass" }));
const network = devnet.x402.network;
const success = (transaction: string) => ({ success: true, transaction, network, payer: "0x" });

/** A transfer of exactly the price from the payer to the service, made without any authorization. */
async function unrelatedTransfer(): Promise<Hex> {
  const account = privateKeyToAccount(devnet.accounts[WALLET]!.privateKey);
  const wallet = createWalletClient({ account, transport: http(devnet.x402.rpcUrl) });
  return wallet.writeContract({
    chain: null,
    address: devnet.x402.asset,
    abi: erc20Abi,
    functionName: "transfer",
    args: [devnet.x402.payTo, PRICE],
  });
}

let otherPayment: string;

const rpc = createPublicClient({ transport: http(devnet.x402.rpcUrl) });
/**
 * Sends this payment's own transferWithAuthorization from another wallet, with the signed fields as the
 * credential carries them (public once in any transaction's calldata), or with `value` raised by `tamper`,
 * which the signature does not cover: that one is mined and reverts. Its hash, once mined as expected.
 */
async function sentAuthorization(signature: string, tamper = 0n): Promise<Hash> {
  const { payload } = JSON.parse(Buffer.from(signature, "base64").toString());
  const { from, to, value, validAfter, validBefore, nonce } = payload.authorization;
  const { v, r, s } = parseSignature(payload.signature);
  const account = privateKeyToAccount(devnet.accounts[2]!.privateKey);
  const wallet = createWalletClient({ account, transport: http(devnet.x402.rpcUrl) });
  const hash = await wallet.writeContract({
    chain: null,
    address: devnet.x402.asset,
    abi: eip3009Abi,
    functionName: "transferWithAuthorization",
    args: [from, to, BigInt(value) + tamper, BigInt(validAfter), BigInt(validBefore), nonce, Number(v), r, s],
    gas: 200_000n,
  });
  const receipt = await rpc.waitForTransactionReceipt({ hash });
  expect(receipt.status).toBe(tamper ? "reverted" : "success");
  return hash;
}
const revertedAttempt = (signature: string) => sentAuthorization(signature, 1n);

describe("a remote facilitator that lies", () => {
  it("pays, but names another payment's transaction: the answer names the chain's own", async () => {
    otherPayment = await paid(await (await submission()).send());
    onSettle({ kind: "rewrite", body: (answer) => ({ ...answer, transaction: otherPayment }) });
    const call = await submission();
    const tx = await paid(await call.send());
    expect(tx).not.toBe(otherPayment);
    expect(await call.row()).toMatchObject({ status: "fulfilled", txRef: tx });
    front.setPolicy(PASS);
  });

  it("pays, but reports a refusal or a revert: the chain shows it spent, so the write is stored", async () => {
    const before = await balance();
    const lies: FrontFault[] = [
      {
        kind: "rewrite",
        status: 400,
        body: () => ({
          success: false,
          errorReason: "invalid_exact_evm_insufficient_balance",
          transaction: "",
          network,
        }),
      },
      {
        kind: "rewrite",
        body: (answer) => ({
          ...answer,
          success: false,
          errorReason: "invalid_exact_evm_transaction_failed",
        }),
      },
    ];
    for (const lie of lies) {
      onSettle(lie);
      const call = await submission();
      await paid(await call.send());
      expect(await call.stored()).toBe(1);
    }
    front.setPolicy(PASS);
    expect(await balance()).toBe(before - 2n * PRICE);
  });

  it("reports a revert: the claim stays open while the authorization can land, and is stored once it does", async () => {
    const before = await balance();
    // Another payment's reverted transaction proves nothing about this one: the claim waits for the chain.
    const other = await submission(10);
    const otherRevert = await revertedAttempt(other.signature);
    const revert = (transaction: Hash): FrontFault => ({
      kind: "answer",
      status: 400,
      body: { success: false, errorReason: "invalid_exact_evm_transaction_failed", transaction, network },
    });
    onSettle(revert(otherRevert));
    const waiting = await submission(10);
    await problem(await waiting.send(), 503, "payment-pending");
    expect(await waiting.row()).toMatchObject({ status: "claimed" });
    // Its own transaction, mined and reverted: nothing moved, but a revert does not spend the authorization,
    // which stays usable by anyone until it expires. Not "not charged": pending, the claim open.
    const own = await submission();
    onSettle(revert(await revertedAttempt(own.signature)));
    const { paymentId, detail } = await problem(await own.send(), 503, "payment-pending");
    expect(detail).toMatch(/reverted/);
    expect(await own.row()).toMatchObject({ id: paymentId, status: "claimed" });
    expect(await own.spent()).toBe(false);
    expect(await balance()).toBe(before);
    front.setPolicy(PASS);
    // Someone lands it from the calldata later: recovery stores the write, and the payer is charged once.
    const landed = await sentAuthorization(own.signature);
    expect(await recoverPayments(PAID_WRITES, { idleMs: 0, paymentIds: [paymentId] })).toMatchObject({
      settled: 1,
      fulfilled: 1,
    });
    expect(await paid(await own.send())).toBe(landed);
    expect(await own.stored()).toBe(1);
    expect(await balance()).toBe(before - PRICE);
  });

  it("refuses a settlement: the claim stays open until the chain decides, and the same payment pays once answered honestly", async () => {
    const refusal = { success: false, errorReason: "invalid_exact_evm_signature", transaction: "", network };
    onSettle({ kind: "answer", status: 400, body: refusal });
    const settle = await submission();
    const { paymentId } = await problem(await settle.send(), 503, "payment-pending");
    expect(await settle.row()).toMatchObject({ id: paymentId, status: "claimed" });
    front.setPolicy(PASS);
    // Once idle, the same request takes its claim over and settles it with the honest facilitator.
    let answer = await settle.send();
    await until(async () => {
      answer = await settle.send();
      return answer.status !== 503;
    }, "the open claim to be taken over");
    await paid(answer);
    expect(await settle.stored()).toBe(1);
  });

  it("refuses a verification with a 4xx status: a refusal (402) with nothing claimed, not an outage", async () => {
    front.setPolicy((call) =>
      call.route === "POST /verify"
        ? {
            kind: "answer",
            status: 400,
            body: { isValid: false, invalidReason: "invalid_exact_evm_signature" },
          }
        : { kind: "pass" },
    );
    const register = await paidCall(devnet, WALLET, "register", { namespace: uniqueName("lies") });
    await problem(await register.send(), 402, "payment-invalid");
    expect(await register.row()).toBeUndefined();
    front.setPolicy(PASS);
    // Nothing of it stayed: it pays when the facilitator answers honestly.
    expect((await register.send()).status).toBe(200);
  });

  it("reports success without sending: nothing is stored, the claim is pending, then fails once expired", async () => {
    const before = await balance();
    const unrelated = await unrelatedTransfer();
    const claims: Awaited<ReturnType<typeof submission>>[] = [];
    for (const transaction of [`0x${"ab".repeat(32)}`, otherPayment, unrelated]) {
      onSettle({ kind: "answer", status: 200, body: success(transaction) });
      const call = await submission(10);
      const { paymentId } = await problem(await call.send(), 503, "payment-pending");
      expect(await call.row()).toMatchObject({ id: paymentId, status: "claimed" });
      expect(await call.stored()).toBe(0);
      claims.push(call);
    }
    front.setPolicy(PASS);
    await until(async () => {
      await recoverPaidWrites();
      const rows = await Promise.all(claims.map((call) => call.row()));
      return rows.every((row) => row?.status === "failed");
    }, "recovery to fail the claims once their credentials expired");
    for (const call of claims) {
      await problem(await call.send(), 402, "settlement-failed");
      expect(await call.stored()).toBe(0);
      expect(await call.spent()).toBe(false);
    }
    // The only money that moved is the payer's own transfer, which paid for nothing here.
    expect(await balance()).toBe(before - PRICE);
  });
});
