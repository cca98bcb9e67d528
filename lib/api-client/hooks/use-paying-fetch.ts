import { useCallback } from "react";
import { useConfig } from "wagmi";
import { getConnection, switchChain } from "wagmi/actions";
import { useClientConfig } from "../config";

/** Returns a function that prepares a fetch paying at most `maxMicroUsd` from the connected wallet. */
export function usePayingFetch() {
  const wagmi = useConfig();
  const client = useClientConfig();
  return useCallback(
    async (maxMicroUsd: bigint): Promise<typeof fetch> => {
      const connection = getConnection(wagmi);
      if (connection.status !== "connected" || !connection.address)
        throw new Error("Connect a wallet first.");
      if (connection.chainId !== client.chainId) await switchChain(wagmi, { chainId: client.chainId });
      // Loaded on demand: the payment code (x402, typed-data signing) stays out of the first page load.
      const { createPayingFetch } = await import("../wallet/pay");
      return createPayingFetch(wagmi, connection.address, {
        network: client.network,
        asset: client.asset,
        decimals: client.assetDecimals,
        maxMicroUsd,
      });
    },
    [wagmi, client],
  );
}
