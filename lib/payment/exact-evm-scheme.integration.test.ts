import { randomBytes } from "node:crypto";
import type { PaymentPayload, PaymentRequirements } from "@x402/core/types";
import { authorizationTypes } from "@x402/evm";
import { ExactEvmScheme } from "@x402/evm/exact/facilitator";
import { getAddress, type Hex, serializeErc6492Signature, toHex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, describe, expect, it, vi } from "vitest";
import { extraFacilitators } from "@/scripts/devnet/accounts";
import { chainReader } from "@/testing/chain";
import { startRpcProxy } from "@/testing/rpc-proxy";
import { workerDevnet } from "@/testing/worker-devnet";
import { type Authorization, PlainWalletExactEvmScheme } from "./exact-evm-scheme";
import { facilitatorSigner } from "./facilitator";

// Our scheme and the library's, side by side on the devnet, each sending from a key of its own: for
// every payment they must answer alike, and ours must settle a plain wallet's payment without the library.
const devnet = workerDevnet();
const chain = chainReader(devnet.x402.rpcUrl, devnet.x402.asset);
// Both reach the chain through a proxy that notes which methods they call.
const methods: string[] = [];
let failCode = false;
const proxy = await startRpcProxy(devnet.x402.rpcUrl, (call) => {
  methods.push(call.method);
  if (failCode && call.method === "eth_getCode") return { kind: "http-500" };
  return { kind: "pass" };
});
process.env.X402_RPC_URL = proxy.url;
afterAll(() => proxy.close());
const oursSigner = facilitatorSigner(extraFacilitators[1]!.privateKey).signer;
const library = new ExactEvmScheme(oursSigner);
const settleInLibrary = vi.spyOn(library, "settle");
const ours = new PlainWalletExactEvmScheme(oursSigner, library);
const theirs = new ExactEvmScheme(facilitatorSigner(extraFacilitators[2]!.privateKey).signer);

const requirements: PaymentRequirements = {
  scheme: "exact",
  network: devnet.x402.network,
  asset: devnet.x402.asset,
  amount: "10000",
  payTo: devnet.x402.payTo,
  maxTimeoutSeconds: 60,
  extra: { name: devnet.x402.assetName, version: devnet.x402.assetVersion },
};

/** A payment as x402's client signs one, with any field changed before signing. */
async function signed(
  payer: number,
  changes: Partial<Authorization> = {},
  sign: (signature: Hex) => Hex = (s) => s,
): Promise<PaymentPayload> {
  const account = privateKeyToAccount(devnet.accounts[payer]!.privateKey);
  const now = Math.floor(Date.now() / 1000);
  const authorization: Authorization = {
    from: account.address,
    to: requirements.payTo as Hex,
    value: requirements.amount,
    validAfter: String(now - 600),
    validBefore: String(now + 60),
    nonce: toHex(randomBytes(32)),
    ...changes,
  };
  const signature = await account.signTypedData({
    domain: {
      name: devnet.x402.assetName,
      version: devnet.x402.assetVersion,
      chainId: devnet.x402.chainId,
      verifyingContract: devnet.x402.asset,
    },
    types: authorizationTypes,
    primaryType: "TransferWithAuthorization",
    message: {
      ...authorization,
      value: BigInt(authorization.value),
      validAfter: BigInt(authorization.validAfter),
      validBefore: BigInt(authorization.validBefore),
    },
  });
  return { x402Version: 2, accepted: requirements, payload: { authorization, signature: sign(signature) } };
}

/** The payment with one of its addresses' first letter in the other case: a broken EIP-55 checksum. */
function rewritten(payment: PaymentPayload, field: "from" | "to"): PaymentPayload {
  const { authorization, signature } = payment.payload as { authorization: Authorization; signature: Hex };
  const address = getAddress(authorization[field]);
  const i = address.slice(2).search(/[a-fA-F]/) + 2;
  const c = address[i]!;
  const broken = `${address.slice(0, i)}${c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase()}${address.slice(i + 1)}`;
  return { ...payment, payload: { authorization: { ...authorization, [field]: broken }, signature } };
}

/** What decides the money in a settlement's answer (see x402-settlement.ts). */
const verdict = (r: { success: boolean; errorReason?: string; transaction: string }) => ({
  success: r.success,
  errorReason: r.errorReason,
  sent: Boolean(r.transaction),
});

/** Settles a fresh payment of the same shape with each scheme; both answers, ours first. */
async function both(
  make: () => Promise<PaymentPayload>,
  req: PaymentRequirements = requirements,
): Promise<[ReturnType<typeof verdict>, ReturnType<typeof verdict>]> {
  const [mine, reference] = [await make(), await make()];
  return [verdict(await ours.settle(mine, req)), verdict(await theirs.settle(reference, req))];
}

describe("the exact scheme, a plain wallet's payment settled natively", () => {
  it("settles a payment as the library does: one transfer of the amount, and never through the library", async () => {
    settleInLibrary.mockClear();
    const payer = privateKeyToAccount(devnet.accounts[3]!.privateKey).address;
    const before = await chain.balanceOf(payer);
    const payload = await signed(3);
    const result = await ours.settle(payload, requirements);
    expect(result).toMatchObject({ success: true, network: devnet.x402.network, payer });
    expect(await chain.transfersIn(result.transaction as Hex)).toMatchObject({ status: "success" });
    expect(await chain.balanceOf(payer)).toBe(before - 10_000n);
    expect(settleInLibrary).not.toHaveBeenCalled();
    expect(verdict(await theirs.settle(await signed(3), requirements))).toEqual(verdict(result));
  });

  it("refuses what the library refuses, with its reasons, before anything is sent", async () => {
    const now = Math.floor(Date.now() / 1000);
    const flipped = (s: Hex) => `${s.slice(0, 60)}${s[60] === "0" ? "1" : "0"}${s.slice(61)}` as Hex;
    const cases: Array<[string, () => Promise<PaymentPayload>, PaymentRequirements?]> = [
      [
        "a signature by another key",
        () => signed(3, { from: privateKeyToAccount(devnet.accounts[4]!.privateKey).address }),
      ],
      ["a tampered signature", () => signed(3, {}, flipped)],
      ["another recipient", () => signed(3, { to: devnet.accounts[5]!.address })],
      ["another amount", () => signed(3, { value: "9999" })],
      ["an expired authorization", () => signed(3, { validBefore: String(now + 3) })],
      ["an authorization not valid yet", () => signed(3, { validAfter: String(now + 600) })],
      // The very payment, its payer or recipient then written in mixed case that breaks the EIP-55 checksum.
      ["a payer with a broken checksum", async () => rewritten(await signed(3), "from")],
      ["a recipient with a broken checksum", async () => rewritten(await signed(3), "to")],
      [
        "another network",
        async () => ({ ...(await signed(3)), accepted: { ...requirements, network: "eip155:1" } }),
      ],
      ["no EIP-712 domain", () => signed(3), { ...requirements, extra: {} }],
    ];
    for (const [name, make, req] of cases) {
      const payload = await make();
      methods.length = 0;
      const mine = verdict(await ours.settle(payload, req ?? requirements));
      // Refused here: the chain was asked for code at most, never to estimate or send anything.
      expect(
        methods.filter((m) => m !== "eth_getCode"),
        name,
      ).toEqual([]);
      const reference = verdict(await theirs.settle(await make(), req ?? requirements));
      expect(mine, name).toEqual(reference);
      expect(mine.success, name).toBe(false);
      expect(mine.sent, name).toBe(false);
    }
  });

  it("answers a payment whose nonce is spent already as the library does: the nonce is used, nothing sent", async () => {
    const spent = async () => {
      const payload = await signed(6);
      return payload;
    };
    const [mine, reference] = [await spent(), await spent()];
    expect((await ours.settle(mine, requirements)).success).toBe(true);
    expect((await theirs.settle(reference, requirements)).success).toBe(true);
    const again = [
      verdict(await ours.settle(mine, requirements)),
      verdict(await theirs.settle(reference, requirements)),
    ];
    expect(again[0]).toEqual(again[1]);
    expect(again[0]).toEqual({
      success: false,
      errorReason: "invalid_exact_evm_nonce_already_used",
      sent: false,
    });
  });

  it("leaves a payer whose code cannot be read to the library, which refuses it and sends nothing", async () => {
    settleInLibrary.mockClear();
    failCode = true;
    try {
      // A payer neither scheme has asked about yet, so no code answer is kept for it.
      const [mine, reference] = await both(() => signed(7));
      expect(settleInLibrary).toHaveBeenCalledTimes(1);
      expect(mine).toEqual(reference);
      expect(mine).toMatchObject({ success: false, sent: false });
    } finally {
      failCode = false;
    }
  });

  it("leaves a wrapped (EIP-6492) signature to the library", async () => {
    settleInLibrary.mockClear();
    const wrap = (signature: Hex) =>
      serializeErc6492Signature({
        address: "0x000000000000000000000000000000000000fac7",
        data: "0x1234",
        signature,
      });
    const [mine, reference] = await both(() => signed(3, {}, wrap));
    expect(settleInLibrary).toHaveBeenCalledTimes(1);
    expect(mine).toEqual(reference);
    expect(mine.success).toBe(false);
  });
});
