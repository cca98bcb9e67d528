import { createPublicClient, erc20Abi, type Hash, http, parseAbi, parseEventLogs } from "viem";

/** Reads USDC balances and settlement transfers straight from the chain. */
export function chainReader(rpcUrl: string, asset: `0x${string}`) {
  const client = createPublicClient({ transport: http(rpcUrl) });
  return {
    balanceOf: (owner: string) =>
      client.readContract({
        address: asset,
        abi: erc20Abi,
        functionName: "balanceOf",
        args: [owner as `0x${string}`],
      }),
    /** Whether an EIP-3009 authorization's nonce is spent (used or cancelled). */
    authorizationUsed: (authorizer: string, nonce: string) =>
      client.readContract({
        address: asset,
        abi: parseAbi(["function authorizationState(address, bytes32) view returns (bool)"]),
        functionName: "authorizationState",
        args: [authorizer as `0x${string}`, nonce as `0x${string}`],
      }),
    /** The ERC-20 transfers of the asset in a mined transaction. */
    async transfersIn(hash: string) {
      const receipt = await client.getTransactionReceipt({ hash: hash as Hash });
      return {
        status: receipt.status,
        transfers: parseEventLogs({ abi: erc20Abi, logs: receipt.logs, eventName: "Transfer" })
          .filter((log) => log.address.toLowerCase() === asset.toLowerCase())
          .map((log) => log.args as { from: string; to: string; value: bigint }),
      };
    },
  };
}
