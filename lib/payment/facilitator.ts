import "server-only";
import { x402Facilitator } from "@x402/core/facilitator";
import { type FacilitatorClient, HTTPFacilitatorClient } from "@x402/core/server";
import { toFacilitatorEvmSigner } from "@x402/evm";
import { registerExactEvmScheme } from "@x402/evm/exact/facilitator";
import { createWalletClient, defineChain, nonceManager, publicActions } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { env } from "@/lib/env";
import { rpcTransport } from "./rpc";

/** A viem chain for the configured x402 network, reached through the configured RPC only. */
export function x402Chain() {
  const e = env();
  const id = Number(e.X402_NETWORK.split(":")[1]);
  return defineChain({
    id,
    name: e.X402_NETWORK,
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: [e.X402_RPC_URL] } },
  });
}

// A receipt usually exists a few milliseconds after the send (a devnet mines on arrival, fast chains
// include within a block), but viem's wait, after one early miss, sleeps a whole polling interval. Look
// again a few times early, then fall back to viem's block polling for the rest of the timeout.
const EARLY_LOOKS_MS = [0, 10, 20, 40, 80];

type ReceiptClient = {
  getTransactionReceipt(args: { hash: `0x${string}` }): Promise<{ status: string }>;
  waitForTransactionReceipt(args: { hash: `0x${string}`; timeout?: number }): Promise<{ status: string }>;
};

async function waitForReceipt(client: ReceiptClient, args: { hash: `0x${string}`; timeout?: number }) {
  const started = Date.now();
  for (const delay of EARLY_LOOKS_MS) {
    if (delay) await new Promise((r) => setTimeout(r, delay));
    const receipt = await client.getTransactionReceipt({ hash: args.hash }).catch(() => undefined);
    if (receipt) return receipt;
  }
  const timeout = args.timeout === undefined ? undefined : Math.max(1, args.timeout - (Date.now() - started));
  return client.waitForTransactionReceipt({ hash: args.hash, timeout });
}

/** An in-process facilitator that verifies and settles EIP-3009 payments from our own key. */
function inProcessFacilitator(): FacilitatorClient {
  const e = env();
  // The nonce manager keeps concurrent settlements from one key from colliding on a nonce.
  const account = privateKeyToAccount(e.X402_FACILITATOR_PRIVATE_KEY as `0x${string}`, { nonceManager });
  const client = createWalletClient({
    account,
    chain: x402Chain(),
    // Receipts are polled (after the early looks); viem's 4 s default would add seconds to every paid call.
    pollingInterval: 250,
    transport: rpcTransport(e.X402_RPC_URL, { timeout: e.X402_TIMEOUT_MS, retryCount: 1 }),
  }).extend(publicActions);
  const signer = toFacilitatorEvmSigner(
    {
      address: account.address,
      readContract: (args) => client.readContract({ ...args, args: args.args ?? [] } as never),
      verifyTypedData: (args) => client.verifyTypedData(args as never),
      writeContract: (args) => client.writeContract({ ...args, args: args.args ?? [] } as never),
      sendTransaction: (args) => client.sendTransaction(args as never),
      waitForTransactionReceipt: (args) => waitForReceipt(client as ReceiptClient, args),
      getCode: (args) => client.getCode(args),
    },
    { confirmationTimeoutMs: e.X402_TIMEOUT_MS },
  );
  const facilitator = new x402Facilitator();
  registerExactEvmScheme(facilitator, { signer, networks: e.X402_NETWORK as `${string}:${string}` });
  return {
    verify: (payload, requirements) => facilitator.verify(payload, requirements),
    settle: (payload, requirements) => facilitator.settle(payload, requirements),
    getSupported: async () =>
      facilitator.getSupported() as Awaited<ReturnType<FacilitatorClient["getSupported"]>>,
  };
}

/** The configured facilitator: remote when X402_FACILITATOR_URL is set, otherwise in-process. */
export function createFacilitator(): FacilitatorClient {
  const e = env();
  if (e.X402_FACILITATOR_URL) {
    return new HTTPFacilitatorClient({ url: e.X402_FACILITATOR_URL, timeoutMs: e.X402_TIMEOUT_MS });
  }
  return inProcessFacilitator();
}
