import "server-only";
import { env } from "@/lib/env";
import { MAX_BODY_BYTES } from "@/lib/http/body";
import { formatUsd, toAssetUnits } from "@/lib/money";
import { refundWalletAddress } from "@/lib/payment/refund";
import { X402_MAX_TIMEOUT_SECONDS } from "@/lib/payment/x402-credential";
import { METADATA_LIMITS } from "@/lib/schemas/metadata";
import { PAID_OPERATIONS } from "@/lib/schemas/operations/catalog";
import { fixedPrice, type PaidOperation } from "@/lib/schemas/operations/operation";
import { SUBMITTER_GUIDANCE } from "@/lib/schemas/operations/submitters";

/** The caps a request must respect beyond the contract's field limits. */
export const REQUEST_CAPS = {
  bodyBytes: MAX_BODY_BYTES,
  metadata: METADATA_LIMITS,
} as const;

/**
 * How each protocol is paid on this deployment, from the configuration; for one operation, as its
 * 402 offers it: a reward paid with x402 goes to the refund wallet, and only when there is one.
 */
export function paymentProtocols(op?: PaidOperation) {
  const e = env();
  const rewards = op?.name === "resolve";
  const x402Offered = !rewards || Boolean(e.X402_REFUND_PRIVATE_KEY);
  return {
    x402: x402Offered
      ? {
          x402Version: 2,
          scheme: "exact",
          network: e.X402_NETWORK,
          asset: e.X402_ASSET,
          payTo: rewards ? refundWalletAddress() : e.X402_PAY_TO,
          maxTimeoutSeconds: X402_MAX_TIMEOUT_SECONDS,
          extra: { name: e.X402_ASSET_NAME, version: e.X402_ASSET_VERSION, decimals: e.X402_ASSET_DECIMALS },
        }
      : undefined,
    mpp: {
      method: "tempo",
      intent: "charge",
      currency: e.MPP_CURRENCY,
      recipient: e.MPP_RECIPIENT,
      chainId: e.TEMPO_CHAIN_ID,
      decimals: 6,
    },
  };
}

/** The price of an operation in USD and in each protocol's base units (null when it is dynamic). */
export function priceOf(op: PaidOperation) {
  const decimals = env().X402_ASSET_DECIMALS;
  const fixed = fixedPrice(op);
  if (fixed === null) {
    return {
      amount: null,
      currency: "USD",
      dynamic: { equals: "rewardAmount", min: "0", max: formatUsd(op.maxPrice) },
      x402Amount: null,
      mppAmount: null,
    };
  }
  return {
    amount: formatUsd(fixed),
    currency: "USD",
    x402Amount: toAssetUnits(fixed, decimals).toString(),
    mppAmount: toAssetUnits(fixed, 6).toString(),
  };
}

/** The smallest price a dynamic operation can have: one micro-USD (a reward above 0). */
const MIN_DYNAMIC_MICRO_USD = 1n;

/**
 * An operation's `x-payment-info`, in the shapes discovery tools read: `price` (fixed or dynamic, in
 * USD) and `protocols` (the agentcash discovery profile), and `offers` (MPP's discovery: one per way
 * to pay, the amount in base units, null when the request decides it).
 */
export function paymentInfoFor(op: PaidOperation) {
  const { x402, mpp } = paymentProtocols(op);
  const p = priceOf(op);
  const price =
    p.amount === null
      ? { mode: "dynamic", currency: "USD", min: formatUsd(MIN_DYNAMIC_MICRO_USD), max: p.dynamic.max }
      : { mode: "fixed", currency: "USD", amount: p.amount };
  return {
    price,
    protocols: [
      ...(x402 ? [{ x402: { ...x402, amount: p.x402Amount } }] : []),
      { mpp: { method: mpp.method, intent: mpp.intent, currency: mpp.currency } },
    ],
    offers: [{ method: mpp.method, intent: mpp.intent, amount: p.mppAmount, currency: mpp.currency }],
  };
}

/**
 * `info.x-guidance`: what an agent needs to use the service in one short text (discovery tools put it
 * straight into an agent's context, so it stays well under 4,000 characters); llms.txt has the rest.
 */
export function agentGuidance(): string {
  const origin = env().PUBLIC_ORIGIN;
  const prices = PAID_OPERATIONS.map((op) => {
    const p = priceOf(op);
    const price = p.amount === null ? `price = rewardAmount, up to ${p.dynamic.max} USD` : `${p.amount} USD`;
    return `- ${op.method} ${op.path} (${price}): ${op.summary}.`;
  }).join("\n");
  return `Pay-per-use feedback inbox. Agents file bugs, feature requests and feedback about any product into its namespace; the owner reads, resolves and may tip the submitter in USDC.

Paid calls:
${prices}

How to pay: send the request without payment and read the 402. It carries an x402 v2 challenge (PAYMENT-REQUIRED header; pay with @x402/fetch) and an MPP challenge (WWW-Authenticate: Payment, method tempo, intent charge; pay with mppx). Pay with one of them and send the same request again. Bad input is a 400 naming the field, before any payment; a refused call is never charged, and its answer carries fresh challenges.${env().OFFER_RECEIPT_PRIVATE_KEY ? " Over x402 the offer in the 402 and the receipt in PAYMENT-RESPONSE are signed (offer-receipt extension; key at /.well-known/did.json): keep them as proof of what you paid for." : ""}

Retries: send an Idempotency-Key header (a UUID) with each paid call and the same key on every retry. A retry under the same key and body gets the first answer and is never charged again. An x402 client may send the key as its payment's payment-identifier instead. A 503 payment-pending means: send the same request with the same key later; do not pay again.

Before filing: GET /api/namespace/known-issues?namespace=&q= lists the issues an owner published (free, no sign-in); if yours is there, submit with duplicateOf set to its id.

Told of changes: send callbackUrl with a submission; signed report.* events arrive there (verify with the callbackSecret the answer carries).

Following up: GET /api/namespace/status (what you submitted, with resolutions and rewards) and GET /api/namespace/feedback?id= are free; sign in with the SIGN-IN-WITH-X header, using the challenge in the 402 of an unsigned call, with the wallet that paid (an x402 or a Tempo wallet). Owners read GET /api/namespace/list the same way.

Submitters: ${SUBMITTER_GUIDANCE.join(" ")}

Full guide with examples: ${origin}/llms.txt`;
}
