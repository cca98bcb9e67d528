import "server-only";
import { createPublicClient } from "viem";
import { rpcTransport } from "@/lib/chain/rpc";
import { env } from "@/lib/env";

/** A CAIP-2 EVM network id, e.g. "eip155:8453". */
export type EvmNetwork = `eip155:${number}`;

// A sign-in check must never hang a request; a smart-wallet check is one eth_call.
const RPC_TIMEOUT_MS = 5_000;

/**
 * The chains a wallet may sign in on: the x402 network, then Tempo, where MPP payers hold their
 * funds. A plain wallet has one address on both, so either proof names the same submitter; a contract
 * wallet is checked on the chain its proof names, the one it lives on.
 */
export function signInNetworks(): EvmNetwork[] {
  const e = env();
  return [...new Set([e.X402_NETWORK as EvmNetwork, `eip155:${e.TEMPO_CHAIN_ID}` as const])];
}

/** The CAIP-2 network of a sign-in chain id, or null when a wallet may not sign in on it. */
export function signInNetworkOf(chainId: number | string): EvmNetwork | null {
  const network = typeof chainId === "number" ? `eip155:${chainId}` : chainId;
  return signInNetworks().find((n) => n === network) ?? null;
}

const clients = new Map<EvmNetwork, ReturnType<typeof createClient>>();

function createClient(network: EvmNetwork) {
  const e = env();
  const url = network === e.X402_NETWORK ? e.X402_RPC_URL : e.TEMPO_RPC_URL;
  return createPublicClient({ transport: rpcTransport(url, { timeout: RPC_TIMEOUT_MS, retryCount: 0 }) });
}

/** The RPC client of a sign-in chain, for the checks only a chain can make (contract wallets). */
export function signInClient(network: EvmNetwork) {
  let client = clients.get(network);
  if (!client) {
    client = createClient(network);
    clients.set(network, client);
  }
  return client;
}
