import { encodePaymentRequiredHeader } from "@x402/core/http";
import type { DevnetInfo } from "@/lib/devnet/start-devnet";

/** A PAYMENT-REQUIRED header for `amount` base units, exactly as the service prices a paid call. */
export function x402Requirement(devnet: DevnetInfo, url: string, amount: bigint): string {
  return encodePaymentRequiredHeader({
    x402Version: 2,
    resource: { url, description: "test", mimeType: "application/json" },
    accepts: [
      {
        scheme: "exact",
        network: devnet.x402.network as `${string}:${string}`,
        amount: amount.toString(),
        asset: devnet.x402.asset,
        payTo: devnet.x402.payTo,
        maxTimeoutSeconds: 120,
        extra: { name: devnet.x402.assetName, version: devnet.x402.assetVersion },
      },
    ],
  });
}
