import "server-only";
import { env } from "@/lib/env";
import { formatUsd } from "@/lib/money";
import type { ClientConfig } from "@/lib/schemas/client-config";
import { OPERATIONS } from "@/lib/schemas/operations/catalog";

/** The public part of the configuration, for the browser: nothing secret, no keyed URLs. */
export function clientConfig(): ClientConfig {
  const e = env();
  return {
    origin: e.PUBLIC_ORIGIN,
    network: e.X402_NETWORK as ClientConfig["network"],
    chainId: Number(e.X402_NETWORK.split(":")[1]),
    asset: e.X402_ASSET as `0x${string}`,
    assetDecimals: e.X402_ASSET_DECIMALS,
    rpcUrl: e.BROWSER_RPC_URL ?? null,
    devnetWallets: (e.DEVNET_TEST_WALLETS ?? []) as `0x${string}`[],
    prices: {
      register: formatUsd(OPERATIONS.register.price),
      feedback: formatUsd(OPERATIONS.feedback.price),
      followUp: formatUsd(OPERATIONS["follow-up"].price),
      maxReward: formatUsd(OPERATIONS.resolve.maxPrice),
    },
  };
}
