import { encodePaymentRequiredHeader } from "@x402/core/http";
import type { DevnetInfo } from "@/scripts/devnet/start-devnet";

/**
 * A PAYMENT-REQUIRED header for a rewarded resolve of `amount` base units, exactly as the service
 * offers it: paid to the refund wallet, for the resolve route's resource.
 */
export function rewardRequirement(
  devnet: DevnetInfo,
  url: string,
  amount: bigint,
  description: string,
): string {
  return encodePaymentRequiredHeader({
    x402Version: 2,
    error: "Payment required",
    resource: { url, description, mimeType: "application/json" },
    accepts: [
      {
        scheme: "exact",
        network: devnet.x402.network as `${string}:${string}`,
        amount: amount.toString(),
        asset: devnet.x402.asset,
        payTo: devnet.x402.refundWallet,
        maxTimeoutSeconds: 60,
        extra: { name: devnet.x402.assetName, version: devnet.x402.assetVersion },
      },
    ],
  });
}
