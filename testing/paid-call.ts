import { decodePaymentResponseHeader } from "@x402/core/http";
import { eq, like } from "drizzle-orm";
import type { Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { expect } from "vitest";
import { transferWithAuthorizationTypes } from "@/lib/chain/eip3009";
import { getDb } from "@/lib/db/client";
import { feedback, namespaces, payments } from "@/lib/db/schema";
import { devnetX402Payer } from "@/scripts/clients/x402-payer";
import type { DevnetInfo } from "@/scripts/devnet/start-devnet";
import { APP, appFetch, postJson } from "./app-fetch";
import { chainReader } from "./chain";
import { authorizationOf } from "./eip3009";

/**
 * One paid x402 call of a test, taken apart: the 402, a payment signed by devnet wallet `wallet`, the request
 * to send again and again, and what became of it. `lifetimeSeconds` shortens the payment's validity (the
 * official client signs for 60 s), so a test sees the chain decide an open claim without waiting a minute.
 */
export async function paidCall(
  devnet: DevnetInfo,
  wallet: number,
  path: string,
  body: unknown,
  lifetimeSeconds?: number,
) {
  const url = `${APP}/api/namespace/${path}`;
  const asked = await appFetch(url, postJson(body));
  if (asked.status !== 402) throw new Error(`expected a 402, got ${asked.status}: ${await asked.text()}`);
  let signature = await devnetX402Payer(devnet, wallet).sign(asked.headers.get("payment-required")!);
  if (lifetimeSeconds) {
    signature = await resigned(devnet, devnet.accounts[wallet]!.privateKey, signature, lifetimeSeconds);
  }
  const { from, nonce } = authorizationOf(signature);
  const chain = chainReader(devnet.x402.rpcUrl, devnet.x402.asset);
  const row = async () => {
    const key = `%:${nonce.toLowerCase()}`;
    return (await (await getDb()).select().from(payments).where(like(payments.paymentKey, key)))[0];
  };
  return {
    /** The PAYMENT-SIGNATURE header's value. */
    signature,
    send: () => appFetch(url, postJson(body, { "payment-signature": signature })),
    /** The ledger row the payment was claimed as, if any. */
    row,
    /** Whether the chain shows the authorization's nonce spent. */
    spent: () => chain.authorizationUsed(from, nonce),
    /** How many writes (items or names) the service stored for this payment. */
    async stored() {
      const paymentId = (await row())?.id;
      if (!paymentId) return 0;
      const db = await getDb();
      const items = await db.select().from(feedback).where(eq(feedback.paymentId, paymentId));
      const names = await db.select().from(namespaces).where(eq(namespaces.paymentId, paymentId));
      return items.length + names.length;
    },
  };
}

/** The same payment signed again with a validBefore `seconds` from now. */
async function resigned(devnet: DevnetInfo, privateKey: Hex, signature: string, seconds: number) {
  const payload = JSON.parse(Buffer.from(signature, "base64").toString());
  const auth = payload.payload.authorization;
  auth.validBefore = String(Math.floor(Date.now() / 1000) + seconds);
  payload.payload.signature = await privateKeyToAccount(privateKey).signTypedData({
    domain: {
      name: devnet.x402.assetName,
      version: devnet.x402.assetVersion,
      chainId: devnet.x402.chainId,
      verifyingContract: devnet.x402.asset,
    },
    types: transferWithAuthorizationTypes,
    primaryType: "TransferWithAuthorization",
    message: {
      ...auth,
      value: BigInt(auth.value),
      validAfter: BigInt(auth.validAfter),
      validBefore: BigInt(auth.validBefore),
    },
  });
  return Buffer.from(JSON.stringify(payload)).toString("base64");
}

/** What a test checks of an answer to a submission paid by devnet wallet `wallet`, and of the chain. */
export function answerChecks(devnet: DevnetInfo, wallet: number) {
  const PRICE = 10_000n;
  const payer = devnet.accounts[wallet]!.address;
  const chain = chainReader(devnet.x402.rpcUrl, devnet.x402.asset);
  return {
    PRICE,
    balance: () => chain.balanceOf(payer),
    /** A 200 whose PAYMENT-RESPONSE names a transaction that moved `value` from the payer; its hash. */
    async paid(res: Response, value = PRICE) {
      expect(res.status, await res.clone().text()).toBe(200);
      const tx = decodePaymentResponseHeader(res.headers.get("payment-response")!).transaction;
      const transfers = [{ from: payer, to: devnet.x402.payTo, value }];
      expect(await chain.transfersIn(tx)).toEqual({ status: "success", transfers });
      return tx;
    },
    /** A problem+json answer of this status and type; its body. */
    async problem(res: Response, status: number, type: string) {
      const body = await res.json();
      expect({ status: res.status, type: body.type }, body.detail).toEqual({
        status,
        type: `/problems/${type}`,
      });
      return body as { paymentId: string; detail: string };
    },
  };
}

/** Waits for a condition, asking every 250 ms, up to a generous deadline. */
export async function until(check: () => Promise<boolean>, what: string, ms = 45_000) {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
