import "server-only";
import { createPublicClient, parseAbi } from "viem";
import { env } from "@/lib/env";
import { x402Chain } from "./facilitator";
import { rpcTransport } from "./rpc";
import { withTimeout } from "./timeout";
import type { ClaimedPayment, PaymentProtocol } from "./types";

const eip3009 = parseAbi([
  "function authorizationState(address authorizer, bytes32 nonce) view returns (bool)",
  "event AuthorizationUsed(address indexed authorizer, bytes32 indexed nonce)",
]);

const LOG_WINDOW = 50_000n;

/**
 * What became of an x402 credential whose settlement we never saw finish: the token itself records
 * whether the EIP-3009 authorization was used, and its AuthorizationUsed log names the transaction.
 */
export const reconcileX402: PaymentProtocol["reconcile"] = async (claim: ClaimedPayment) => {
  const match = /:(0x[0-9a-f]{40}):(0x[0-9a-f]{40}):(0x[0-9a-f]{64})$/.exec(claim.paymentKey);
  if (!match) return { state: "pending" };
  const [, asset, authorizer, nonce] = match as unknown as [string, string, string, string];
  const e = env();
  const client = createPublicClient({
    chain: x402Chain(),
    transport: rpcTransport(e.X402_RPC_URL, { timeout: e.X402_TIMEOUT_MS }),
  });
  const token = asset as `0x${string}`;
  const used = await withTimeout(
    client.readContract({
      address: token,
      abi: eip3009,
      functionName: "authorizationState",
      args: [authorizer as `0x${string}`, nonce as `0x${string}`],
    }),
    e.X402_TIMEOUT_MS,
    "authorizationState",
  );
  if (used) {
    // Public RPCs bound log ranges; a recent window covers any credential that could still be claimed.
    const latest = await withTimeout(client.getBlockNumber(), e.X402_TIMEOUT_MS, "block number");
    const logs = await withTimeout(
      client.getLogs({
        address: token,
        event: eip3009[1],
        args: { authorizer: authorizer as `0x${string}`, nonce: nonce as `0x${string}` },
        fromBlock: latest > LOG_WINDOW ? latest - LOG_WINDOW : 0n,
        toBlock: latest,
      }),
      e.X402_TIMEOUT_MS,
      "AuthorizationUsed logs",
    );
    return { state: "settled", txRef: logs[0]?.transactionHash ?? `authorization-used:${nonce}` };
  }
  return claim.expiresAt && claim.expiresAt.getTime() < Date.now()
    ? { state: "unsettled" }
    : { state: "pending" };
};
