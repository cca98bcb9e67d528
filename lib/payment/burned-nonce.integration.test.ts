import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { feedback, payments } from "@/lib/db/schema";
import { PAID_WRITES } from "@/lib/domain/paid-operations";
import { createX402Fetch } from "@/scripts/clients/x402-payer";
import { APP, appFetch, postJson, uniqueName } from "@/testing/app-fetch";
import { chainReader } from "@/testing/chain";
import { authorizationOf, nonceBurner } from "@/testing/eip3009";
import { workerDevnet } from "@/testing/worker-devnet";
import { claimPayment, requestHashOf } from "./ledger";
import { recoverPayments } from "./recover";
import { x402Protocol } from "./x402";

// An attacker holds a funded wallet and signs real payments, then burns their nonces on chain without
// paying the service: with the token's own cancelAuthorization, or by spending the nonce on a transfer
// to itself. "The nonce is used" must never count as "paid".
const devnet = workerDevnet();
const attacker = devnet.accounts[3]!;
const chain = chainReader(devnet.x402.rpcUrl, devnet.x402.asset);
const burner = nonceBurner(devnet, attacker.privateKey);
const payer = createX402Fetch({
  privateKey: attacker.privateKey,
  network: devnet.x402.network,
  rpcUrl: devnet.x402.rpcUrl,
  asset: devnet.x402.asset,
  fetch: appFetch,
});
const url = `${APP}/api/namespace/feedback`;
const body = () => ({
  namespace: uniqueName("burn"),
  type: "bug",
  title: "Free item, please",
  description: "Signed, then cancelled on chain before it reached the service.",
});

async function signedFor(input: ReturnType<typeof body>) {
  const asked = await appFetch(url, postJson(input));
  expect(asked.status).toBe(402);
  return payer.sign(asked.headers.get("payment-required")!);
}

async function ledgerOf(signature: string) {
  const { nonce } = authorizationOf(signature);
  const rows = await (await getDb()).select().from(payments).where(eq(payments.payer, attacker.address));
  return rows.filter((r) => r.paymentKey.endsWith(nonce.toLowerCase()));
}

const itemsOf = async (namespace: string) =>
  (await getDb()).select().from(feedback).where(eq(feedback.namespace, namespace));

describe("a payer that burns its own authorization nonce", () => {
  it("cancelled before it is sent: refused with the reason, nothing stored, no claim left open", async () => {
    const input = body();
    const signature = await signedFor(input);
    await burner.cancel(authorizationOf(signature).nonce);
    const [service, attackerBefore] = [
      await chain.balanceOf(devnet.x402.payTo),
      await chain.balanceOf(attacker.address),
    ];

    const res = await appFetch(url, postJson(input, { "payment-signature": signature }));
    expect(res.status).toBe(402);
    const problem = await res.json();
    expect(problem).toMatchObject({ type: "/problems/settlement-failed", paymentId: expect.any(String) });
    expect(problem.detail).toMatch(/canceled/);
    expect(await itemsOf(input.namespace)).toEqual([]);
    expect((await ledgerOf(signature)).map((r) => r.status)).toEqual(["failed"]);
    expect(await chain.balanceOf(devnet.x402.payTo)).toBe(service);
    expect(await chain.balanceOf(attacker.address)).toBe(attackerBefore);

    // Sent again, it is answered by the ledger: still refused, still nothing stored.
    const again = await appFetch(url, postJson(input, { "payment-signature": signature }));
    expect(again.status).toBe(402);
    expect(await itemsOf(input.namespace)).toEqual([]);
  });

  it("spent on a transfer to another address: the used nonce proves nothing, nothing is stored", async () => {
    const input = body();
    const signature = await signedFor(input);
    await burner.spendElsewhere(authorizationOf(signature).nonce, devnet.accounts[4]!.address);
    const service = await chain.balanceOf(devnet.x402.payTo);

    const res = await appFetch(url, postJson(input, { "payment-signature": signature }));
    expect(res.status).toBe(402);
    expect((await res.json()).detail).toMatch(/used without paying/);
    expect(await itemsOf(input.namespace)).toEqual([]);
    expect(await chain.balanceOf(devnet.x402.payTo)).toBe(service);
  });

  it("cancelled while its request waited on a crash: recovery fails the claim and stores nothing", async () => {
    const input = body();
    const signature = await signedFor(input);
    const charge = {
      operation: "feedback",
      method: "POST" as const,
      amountMicroUsd: 10_000n,
      resourceUrl: url,
      description: "Submitting feedback",
    };
    // The process claimed the credential and died before settling it; the payer then burned the nonce.
    const read = await x402Protocol.read(
      new Request(url, postJson(input, { "payment-signature": signature })),
      charge,
    );
    const db = await getDb();
    const claim = await claimPayment(db, {
      payment: read,
      operation: "feedback",
      lockKey: null,
      request: { ...input, signedIn: null },
      requestHash: requestHashOf(input),
    });
    if (!claim.ok) throw new Error("not claimed");
    await burner.cancel(authorizationOf(signature).nonce);

    const report = await recoverPayments(PAID_WRITES, { idleMs: 0, paymentIds: [claim.paymentId] });
    expect(report).toMatchObject({ failed: 1, settled: 0, fulfilled: 0, errors: 0 });
    expect(await itemsOf(input.namespace)).toEqual([]);
    expect((await ledgerOf(signature))[0]).toMatchObject({
      status: "failed",
      error: expect.stringMatching(/canceled/),
    });
  });

  it("cancelled in a race with the settlement: either paid and stored once, or refused with nothing stored", async () => {
    for (let round = 0; round < 6; round++) {
      const input = body();
      const signature = await signedFor(input);
      const service = await chain.balanceOf(devnet.x402.payTo);
      const [res] = await Promise.all([
        appFetch(url, postJson(input, { "payment-signature": signature })),
        // Half the rounds cancel a moment later, so both orders on chain happen.
        new Promise((r) => setTimeout(r, round % 2 ? 5 : 0))
          .then(() => burner.cancel(authorizationOf(signature).nonce))
          .catch(() => "the cancel reverted: the settlement used the nonce first"),
      ]);
      const items = await itemsOf(input.namespace);
      const received = (await chain.balanceOf(devnet.x402.payTo)) - service;
      if (res.status === 200) {
        expect(items).toHaveLength(1);
        expect(received).toBe(10_000n);
      } else {
        expect(res.status, await res.text()).toBe(402);
        expect(items).toEqual([]);
        expect(received).toBe(0n);
      }
      expect((await ledgerOf(signature)).filter((r) => r.status === "claimed")).toEqual([]);
    }
  });
});
