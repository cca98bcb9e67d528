import "server-only";
import { env } from "@/lib/env";
import { MAX_BODY_BYTES } from "@/lib/http/body";
import { formatUsd, PRICES, toAssetUnits } from "@/lib/payment/prices";
import { METADATA_LIMITS } from "@/lib/schemas/metadata";
import { MAX_REWARD_MICRO_USD } from "@/lib/schemas/resolve";

/** Contract 1.6, for submitters and resolvers: shown in the OpenAPI document and in llms.txt. */
export const SUBMITTER_GUIDANCE = [
  "Choose type bug for broken behaviour, feature for suggestions, feedback for general input.",
  "Remove sensitive data from context before submitting.",
  "Submit one issue per submission.",
  "A resolver should include a message and may set rewardAmount to tip the submitter.",
] as const;

/** The caps a request must respect beyond the contract's field limits. */
export const REQUEST_CAPS = {
  bodyBytes: MAX_BODY_BYTES,
  metadata: METADATA_LIMITS,
} as const;

/** A paid operation: its route and price; `null` micro-USD means the price is the reward. */
export type PaidOperation = {
  operationId: string;
  method: "POST";
  path: string;
  description: string;
  priceMicroUsd: bigint | null;
};

export const PAID_OPERATIONS: readonly PaidOperation[] = [
  {
    operationId: "namespace_register",
    method: "POST",
    path: "/api/namespace/register",
    description: "Register a namespace; the paying wallet becomes its owner.",
    priceMicroUsd: PRICES.register,
  },
  {
    operationId: "namespace_feedback",
    method: "POST",
    path: "/api/namespace/feedback",
    description: "Submit one feedback item to any namespace name.",
    priceMicroUsd: PRICES.feedback,
  },
  {
    operationId: "namespace_resolve",
    method: "POST",
    path: "/api/namespace/resolve",
    description: `Resolve an item with a reward: the price equals rewardAmount (above 0, at most ${formatUsd(MAX_REWARD_MICRO_USD)} USD); without a reward the call is free and needs a sign-in.`,
    priceMicroUsd: null,
  },
];

/** How each protocol is paid on this deployment, from the configuration. */
export function paymentProtocols() {
  const e = env();
  return {
    x402: {
      x402Version: 2,
      scheme: "exact",
      network: e.X402_NETWORK,
      asset: e.X402_ASSET,
      payTo: e.X402_PAY_TO,
      maxTimeoutSeconds: 120,
      extra: { name: e.X402_ASSET_NAME, version: e.X402_ASSET_VERSION, decimals: e.X402_ASSET_DECIMALS },
    },
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
  if (op.priceMicroUsd === null) {
    return {
      amount: null,
      currency: "USD",
      dynamic: { equals: "rewardAmount", min: "0", max: formatUsd(MAX_REWARD_MICRO_USD) },
      x402Amount: null,
      mppAmount: null,
    };
  }
  return {
    amount: formatUsd(op.priceMicroUsd),
    currency: "USD",
    x402Amount: toAssetUnits(op.priceMicroUsd, decimals).toString(),
    mppAmount: toAssetUnits(op.priceMicroUsd, 6).toString(),
  };
}
