import "server-only";
import { createPublicClient, type Hex } from "viem";
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

/**
 * Whether `signature` is `address`'s over `message` on a sign-in chain. "eoa" mode recovers ECDSA
 * locally first, so a plain wallet never costs an RPC call; a contract wallet falls through to viem's
 * ERC-6492 validator on that chain, which covers EIP-1271 and wallets not deployed yet.
 */
export async function verifyWalletMessage(
  network: EvmNetwork,
  args: { address: Hex; message: string; signature: Hex },
): Promise<boolean> {
  let client = clients.get(network);
  if (!client) {
    client = createClient(network);
    clients.set(network, client);
  }
  return client.verifyMessage({ ...args, mode: "eoa" });
}
