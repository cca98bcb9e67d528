import "server-only";
import {
  decodePaymentSignatureHeader,
  encodePaymentRequiredHeader,
  encodePaymentResponseHeader,
} from "@x402/core/http";
import { x402ResourceServer } from "@x402/core/server";
import type { PaymentPayload, PaymentRequirements } from "@x402/core/types";
import { ExactEvmScheme } from "@x402/evm/exact/server";
import { getAddress, isAddress, keccak256, toHex } from "viem";
import { env } from "@/lib/env";
import { AppError } from "@/lib/http/errors";
import { createFacilitator } from "./facilitator";
import { toAssetUnits } from "./prices";
import { withTimeout } from "./timeout";
import {
  type Charge,
  CredentialRefused,
  type PaymentProtocol,
  type PeekedPayment,
  type Settlement,
  SettlementError,
  type VerifiedPayment,
} from "./types";
import { reconcileX402 } from "./x402-reconcile";
import { settleFailure, settleResponseOf } from "./x402-settlement";

export const X402_HEADER = "payment-signature";

let serverPromise: Promise<x402ResourceServer> | undefined;

/** One resource server per process, initialised against the facilitator once. */
function resourceServer(): Promise<x402ResourceServer> {
  serverPromise ??= (async () => {
    const e = env();
    const server = new x402ResourceServer(createFacilitator());
    server.register(e.X402_NETWORK as `${string}:${string}`, new ExactEvmScheme());
    await withTimeout(server.initialize(), e.X402_TIMEOUT_MS, "x402 facilitator /supported");
    return server;
  })().catch((error) => {
    serverPromise = undefined;
    throw error;
  });
  return serverPromise;
}

async function requirementsFor(charge: Charge): Promise<PaymentRequirements[]> {
  const e = env();
  const server = await resourceServer();
  return server.buildPaymentRequirements({
    scheme: "exact",
    network: e.X402_NETWORK as `${string}:${string}`,
    payTo: e.X402_PAY_TO,
    maxTimeoutSeconds: 120,
    price: {
      amount: toAssetUnits(charge.amountMicroUsd, e.X402_ASSET_DECIMALS).toString(),
      asset: e.X402_ASSET,
      extra: { name: e.X402_ASSET_NAME, version: e.X402_ASSET_VERSION },
    },
  });
}

type Authorization = { from?: string; nonce?: string; validBefore?: string };
const authorizationOf = (payload: PaymentPayload) =>
  (payload.payload as { authorization?: Authorization }).authorization;

/** The EIP-3009 nonce is unique per token and signer on chain, so it is exactly the replay domain. */
function paymentKeyOf(payload: PaymentPayload, requirements: PaymentRequirements): string {
  const auth = authorizationOf(payload);
  if (auth?.from && auth.nonce) {
    return `x402:${requirements.network}:${requirements.asset.toLowerCase()}:${auth.from.toLowerCase()}:${auth.nonce.toLowerCase()}`;
  }
  return `x402:${requirements.network}:sig:${keccak256(toHex(JSON.stringify(payload.payload)))}`;
}

function expiryOf(payload: PaymentPayload): Date | null {
  const seconds = Number(authorizationOf(payload)?.validBefore);
  return Number.isFinite(seconds) && seconds > 0 ? new Date(seconds * 1000) : null;
}

function refuse(detail: string): AppError {
  return new AppError("payment-invalid", detail);
}

// peek and settlePeeked (or verify) read the same request's credential on the paid hot path: decode it once.
const reads = new WeakMap<Request, ReturnType<typeof decodeAndMatch>>();
function read(request: Request, charge: Charge) {
  let pending = reads.get(request);
  if (!pending) {
    pending = decodeAndMatch(request, charge);
    reads.set(request, pending);
  }
  return pending;
}

/** Decodes the credential and matches it to this charge's requirements; refuses what does not fit. */
async function decodeAndMatch(request: Request, charge: Charge) {
  let payload: PaymentPayload;
  try {
    payload = decodePaymentSignatureHeader(request.headers.get(X402_HEADER) ?? "");
  } catch {
    throw refuse("The PAYMENT-SIGNATURE header is not a valid x402 payment payload.");
  }
  if (payload?.x402Version !== 2) throw refuse("Only x402 version 2 payments are accepted.");
  const server = await resourceServer();
  const matched = server.findMatchingRequirements(await requirementsFor(charge), payload);
  if (!matched) {
    throw refuse("The payment does not match this request's price, asset, network or recipient.");
  }
  return { payload, matched };
}

/** The ledger's description of a credential: its replay key, payer, amount and expiry. */
function described(
  payload: PaymentPayload,
  matched: PaymentRequirements,
  payer: `0x${string}`,
): PeekedPayment {
  return {
    protocol: "x402",
    paymentKey: paymentKeyOf(payload, matched),
    payer,
    amount: matched.amount,
    asset: matched.asset,
    network: matched.network,
    payTo: matched.payTo,
    expiresAt: expiryOf(payload),
  };
}

export const x402Protocol: PaymentProtocol = {
  name: "x402",

  hasCredential: (request) => request.headers.has(X402_HEADER),

  async challenge(charge) {
    const server = await resourceServer();
    const required = await server.createPaymentRequiredResponse(
      await requirementsFor(charge),
      { url: charge.resourceUrl, description: charge.description, mimeType: "application/json" },
      "Payment required",
    );
    return {
      headers: { "PAYMENT-REQUIRED": encodePaymentRequiredHeader(required) },
      body: { x402: required },
    };
  },

  reconcile: reconcileX402,

  async peek(request, charge): Promise<PeekedPayment | null> {
    const { payload, matched } = await read(request, charge).catch(() => ({ payload: null, matched: null }));
    const from = payload && authorizationOf(payload)?.from;
    if (!payload || !matched || !from || !isAddress(from)) return null;
    return described(payload, matched, getAddress(from));
  },

  async verify(request, charge): Promise<VerifiedPayment> {
    const e = env();
    const { payload, matched } = await read(request, charge);
    const server = await resourceServer();
    const verdict = await withTimeout(
      server.verifyPayment(payload, matched),
      e.X402_TIMEOUT_MS,
      "x402 verify",
    );
    if (!verdict.isValid || !verdict.payer) {
      const reason = verdict.invalidMessage ?? verdict.invalidReason ?? "rejected by the facilitator";
      throw refuse(`The payment was refused: ${reason}.`);
    }
    return {
      ...described(payload, matched, getAddress(verdict.payer)),
      settle: () => settle(payload, matched),
    };
  },

  async settlePeeked(request, charge): Promise<Settlement> {
    const { payload, matched } = await read(request, charge);
    return settle(payload, matched);
  },
};

/**
 * Asks the facilitator to settle, which verifies the credential again before it sends anything.
 * A refusal before sending and a mined revert are final (nothing moved); any other failure may still
 * move money, so it is left to reconciliation, which reads the chain (see settleFailure).
 */
async function settle(payload: PaymentPayload, matched: PaymentRequirements): Promise<Settlement> {
  const server = await resourceServer();
  const result = await withTimeout(
    server.settlePayment(payload, matched),
    env().X402_TIMEOUT_MS,
    "x402 settle",
  ).catch(settleResponseOf);
  if (!result.success) {
    const failure = settleFailure(result);
    // Only the reason code is logged: the facilitator's message can quote the signed calldata.
    if (failure.kind === "unknown") {
      throw new Error(`x402 settlement outcome unknown (${result.errorReason ?? "no reason given"})`);
    }
    throw failure.kind === "refused"
      ? new CredentialRefused(failure.reason)
      : new SettlementError(failure.reason);
  }
  return {
    txRef: result.transaction,
    headers: { "PAYMENT-RESPONSE": encodePaymentResponseHeader(result) },
  };
}
