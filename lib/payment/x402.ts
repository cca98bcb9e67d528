import "server-only";
import { x402ResourceServer } from "@x402/core/server";
import type { PaymentPayload, PaymentRequirements } from "@x402/core/types";
import { ExactEvmScheme } from "@x402/evm/exact/server";
import { declarePaymentIdentifierExtension, PAYMENT_IDENTIFIER } from "@x402/extensions/payment-identifier";
import { getAddress, type Hash } from "viem";
import { lookupReceipt } from "@/lib/chain/receipts";
import { env } from "@/lib/env";
import { describeError } from "@/lib/http/log";
import { toAssetUnits } from "@/lib/money";
import { unavailable } from "./answers";
import { bazaarExtension, serviceMetadata } from "./discovery";
import { createFacilitator, settledReceipt, x402Reader } from "./facilitator";
import { deliveredOf, signedOfferExtension, signedReceiptExtension } from "./offer-receipt";
import { x402SignatureRefusal, x402SignedByPayer } from "./payer-proof";
import { refundWalletAddress } from "./refund";
import { withTimeout, withTracedTimeout } from "./timeout";
import {
  type Charge,
  CredentialRefused,
  type PaymentProtocol,
  type ReadCredential,
  type Reconciled,
  type Settlement,
  SettlementReverted,
  type VerifiedPayment,
} from "./types";
import {
  parseX402Credential,
  X402_MAX_TIMEOUT_SECONDS,
  type X402Credential,
  type X402Offer,
  x402HeaderOf,
  x402KeyParts,
} from "./x402-credential";
import { authorizationVerdict, provesPayment } from "./x402-proof";
import { settleFailure, settleResponseOf } from "./x402-settlement";

const X402_HEADER = "payment-signature";
/** How long before its validBefore an authorization's use is searched for on chain. */
const AUTHORIZATION_SEARCH_SECONDS = 86_400n;

let serverPromise: Promise<x402ResourceServer> | undefined;

/**
 * One resource server per process, initialised against the facilitator once. Until the facilitator has
 * said what it supports (a remote one down at startup), nothing can be offered: a 503 to retry, not a 500.
 */
function resourceServer(): Promise<x402ResourceServer> {
  serverPromise ??= (async () => {
    const e = env();
    const server = new x402ResourceServer(createFacilitator());
    server.register(e.X402_NETWORK as `${string}:${string}`, new ExactEvmScheme());
    await withTimeout(server.initialize(), e.X402_TIMEOUT_MS, "x402 facilitator /supported");
    return server;
  })().catch((error: unknown) => {
    serverPromise = undefined;
    console.error(`[payment] the x402 facilitator could not say what it supports: ${describeError(error)}`);
    throw unavailable();
  });
  return serverPromise;
}

/**
 * Where a charge's x402 payment goes: a reward to the refund wallet, which pays it back if it cannot be
 * forwarded; the rest to X402_PAY_TO. With the signed amount, the recipient binds a credential to its
 * operation: a submission's cannot pay a reward of the same amount, and register and submit differ in price.
 */
function payToFor(charge: Charge): string {
  return charge.operation === "resolve" ? refundWalletAddress() : env().X402_PAY_TO;
}

async function offerFor(charge: Charge): Promise<X402Offer> {
  const e = env();
  const server = await resourceServer();
  const [requirement] = await server.buildPaymentRequirements({
    scheme: "exact",
    network: e.X402_NETWORK as `${string}:${string}`,
    payTo: payToFor(charge),
    maxTimeoutSeconds: X402_MAX_TIMEOUT_SECONDS,
    price: {
      amount: toAssetUnits(charge.amountMicroUsd, e.X402_ASSET_DECIMALS).toString(),
      asset: e.X402_ASSET,
      extra: { name: e.X402_ASSET_NAME, version: e.X402_ASSET_VERSION },
    },
  });
  if (!requirement) throw new Error("the x402 resource server built no payment requirement");
  return {
    requirement,
    resource: {
      url: charge.resourceUrl,
      description: charge.description,
      mimeType: "application/json",
      ...serviceMetadata(),
    },
  };
}

// read and settle (or verify) look at the same request's credential on the paid hot path: parse it once.
const reads = new WeakMap<Request, Promise<X402Credential>>();
function readOnce(request: Request, charge: Charge): Promise<X402Credential> {
  let pending = reads.get(request);
  if (!pending) {
    pending = offerFor(charge).then((offer) => parseX402Credential(request.headers.get(X402_HEADER), offer));
    reads.set(request, pending);
  }
  return pending;
}

function described(credential: X402Credential): ReadCredential {
  const { requirement } = credential;
  return {
    protocol: "x402",
    paymentKey: credential.paymentKey,
    payer: credential.payer,
    // A signature that does not recover to its payer can only settle as a contract wallet's (EIP-1271 or
    // EIP-6492, which the facilitator checks): an address that is the payer's own on this chain only.
    payerContractOn: x402SignedByPayer(credential) ? null : requirement.network,
    amount: requirement.amount,
    asset: requirement.asset,
    network: requirement.network,
    payTo: requirement.payTo,
    expiresAt: credential.expiresAt,
    idempotencyKey: credential.paymentIdentifier,
  };
}

export const x402Protocol: PaymentProtocol = {
  name: "x402",

  hasCredential: (request) => request.headers.has(X402_HEADER),

  credentialOf: (request) => request.headers.get(X402_HEADER) ?? "",

  offers: (charge) => charge.operation !== "resolve" || Boolean(env().X402_REFUND_PRIVATE_KEY),

  async challenge(charge, error) {
    const server = await resourceServer();
    const offer = await offerFor(charge);
    const required = await server.createPaymentRequiredResponse(
      [offer.requirement],
      offer.resource,
      error ?? "Payment required",
      {
        ...bazaarExtension(charge),
        // An id the client may attach to its payment: one key with Idempotency-Key (see paid.ts).
        [PAYMENT_IDENTIFIER]: declarePaymentIdentifierExtension(false),
        ...(await signedOfferExtension(offer.resource.url, offer.requirement)),
      },
    );
    return {
      headers: { "PAYMENT-REQUIRED": x402HeaderOf(required) },
      body: { x402: required },
    };
  },

  keyOf(request) {
    try {
      const header = request.headers.get(X402_HEADER) ?? "";
      const auth = JSON.parse(Buffer.from(header, "base64").toString("utf8"))?.payload?.authorization;
      const hex = (v: unknown, bytes: number) =>
        typeof v === "string" && new RegExp(`^0x[0-9a-fA-F]{${bytes * 2}}$`).test(v);
      if (!hex(auth?.from, 20) || !hex(auth?.nonce, 32)) return null;
      const e = env();
      return `x402:${e.X402_NETWORK}:${e.X402_ASSET.toLowerCase()}:${auth.from.toLowerCase()}:${auth.nonce.toLowerCase()}`;
    } catch {
      return null;
    }
  },

  async read(request, charge) {
    return described(await readOnce(request, charge));
  },

  async verify(request, charge, read): Promise<VerifiedPayment> {
    const e = env();
    const credential = await readOnce(request, charge);
    const server = await resourceServer();
    const verdict = await withTracedTimeout(
      () => server.verifyPayment(credential.payload, credential.requirement),
      e.X402_TIMEOUT_MS,
      "x402 verify",
    );
    if (!verdict.isValid || !verdict.payer || getAddress(verdict.payer) !== read.payer) {
      throw x402SignatureRefusal(verdict.invalidReason ?? "rejected by the facilitator");
    }
    return { ...read, settle: () => settle(credential.payload, credential.requirement) };
  },

  async provePayer(request, charge, read) {
    if (x402SignedByPayer(await readOnce(request, charge))) return null;
    // A contract wallet (EIP-1271), a wrapped signature (EIP-6492) or no signature of the payer's at
    // all: only the facilitator's verification can tell which.
    return x402Protocol.verify(request, charge, read);
  },

  async settleUnverified(request, charge): Promise<Settlement> {
    const credential = await readOnce(request, charge);
    return settle(credential.payload, credential.requirement);
  },

  async reconcile(claim): Promise<Reconciled> {
    const parts = x402KeyParts(claim.paymentKey);
    if (!parts) return { state: "unsettled", reason: "the ledger row does not name an authorization" };
    const validBefore = BigInt(Math.floor(claim.expiresAt.getTime() / 1000));
    const verdict = await authorizationVerdict(x402Reader(), {
      asset: getAddress(parts.asset),
      from: getAddress(parts.authorizer),
      to: getAddress(claim.payTo),
      value: BigInt(claim.amount),
      nonce: parts.nonce,
      validBefore,
      searchFrom: validBefore - AUTHORIZATION_SEARCH_SECONDS,
    });
    if (verdict.state === "paid") return { state: "settled", txRef: verdict.txHash };
    if (verdict.state === "unpaid") return { state: "unsettled", reason: verdict.reason };
    return { state: "pending" };
  },

  receiptHeaders,

  async deliveredHeaders(payment, delivery) {
    const receipt = await signedReceiptExtension({
      resourceUrl: delivery.resourceUrl,
      payer: payment.payer,
      network: payment.network,
      transaction: payment.txRef,
      claimedAt: delivery.claimedAt,
      delivered: deliveredOf(delivery, payment.amount),
    });
    return receipt ? receiptHeaders(payment, receipt) : {};
  },
};

/**
 * PAYMENT-RESPONSE, written from what the service proved (never echoed from a facilitator's answer,
 * which may carry other fields or another order): a credential sent again gets the very same header.
 */
function receiptHeaders(
  { txRef, payer, network }: { txRef: string; payer: string; network: string },
  extensions?: Record<string, unknown>,
) {
  return {
    "PAYMENT-RESPONSE": x402HeaderOf({
      success: true,
      transaction: txRef,
      network: network as `${string}:${string}`,
      payer,
      ...(extensions ? { extensions } : {}),
    }),
  };
}

/**
 * Asks the facilitator to settle (it verifies again before sending), then proves the payment from the
 * receipt: this credential's AuthorizationUsed log, then its Transfer of the exact amount to the recipient.
 * Only a refusal before sending is final; a mined revert left the authorization usable, and it and the
 * rest are reconciled (settleFailure).
 */
async function settle(payload: PaymentPayload, requirement: PaymentRequirements): Promise<Settlement> {
  const server = await resourceServer();
  const result = await withTracedTimeout(
    () => server.settlePayment(payload, requirement),
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
      : new SettlementReverted(failure.reason);
  }
  const tx = result.transaction as Hash;
  const auth = (payload.payload as { authorization: { from: string; nonce: `0x${string}` } }).authorization;
  const receipt = settledReceipt(tx) ?? (await lookupReceipt(x402Reader(), tx));
  const expected = {
    asset: getAddress(requirement.asset),
    from: getAddress(auth.from),
    to: getAddress(requirement.payTo),
    value: BigInt(requirement.amount),
    nonce: auth.nonce,
  };
  if (!receipt || !provesPayment(receipt, expected)) {
    // The facilitator says it settled, but its receipt does not prove this transfer: let the chain decide.
    throw new Error(`x402 settlement ${tx} is not proven by its receipt yet`);
  }
  return {
    txRef: tx,
    headers: receiptHeaders({ txRef: tx, payer: expected.from, network: requirement.network }),
  };
}
