/**
 * The x402 baseline: POST /api/feedback paid through the SDK's own Next.js wrapper `withX402`
 * (@x402/next), with an in-process facilitator built the way the SDK documents one (its exact scheme,
 * viem's nonce manager) on the same chain, and an in-memory store. No ledger, no exactly-once.
 */
import { x402Facilitator } from "@x402/core/facilitator";
import { type FacilitatorClient, x402ResourceServer } from "@x402/core/server";
import { toFacilitatorEvmSigner } from "@x402/evm";
import { registerExactEvmScheme } from "@x402/evm/exact/facilitator";
import { ExactEvmScheme } from "@x402/evm/exact/server";
import { withX402 } from "@x402/next";
import type { NextRequest, NextResponse } from "next/server";
import { createWalletClient, defineChain, http, nonceManager, publicActions } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { waitForReceiptEarly } from "@/lib/chain/receipts";
import { required, storeItem } from "@/scripts/bench/baseline-store";

const NETWORK = (process.env.X402_NETWORK ?? "eip155:31337") as `${string}:${string}`;
const TIMEOUT_MS = Number(process.env.X402_TIMEOUT_MS ?? 20_000);

// viem's HTTP transport as an SDK user sets it up, over the runtime's own fetch rather than Next.js's
// per-request wrapper, which would only slow the baseline down.
type Fetch = typeof fetch;
const runtimeFetch: Fetch = (input, init) => {
  const current = globalThis.fetch as Fetch & { _nextOriginalFetch?: Fetch };
  return (current._nextOriginalFetch ?? current)(input, init);
};

function inProcessFacilitator(): FacilitatorClient {
  const rpcUrl = required("X402_RPC_URL");
  const key = required("X402_FACILITATOR_PRIVATE_KEY").split(",")[0] as `0x${string}`;
  const account = privateKeyToAccount(key, { nonceManager });
  const chain = defineChain({
    id: Number(NETWORK.split(":")[1]),
    name: NETWORK,
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  });
  const client = createWalletClient({
    account,
    chain,
    pollingInterval: 250,
    transport: http(rpcUrl, { timeout: TIMEOUT_MS, retryCount: 1, fetchFn: runtimeFetch }),
  }).extend(publicActions);
  const signer = toFacilitatorEvmSigner(
    {
      address: account.address,
      readContract: (args) => client.readContract({ ...args, args: args.args ?? [] } as never),
      verifyTypedData: (args) => client.verifyTypedData(args as never),
      writeContract: (args) => client.writeContract({ ...args, args: args.args ?? [] } as never),
      sendTransaction: (args) => client.sendTransaction(args as never),
      // The same early-looking receipt wait as ours, so the comparison is of the wrappers alone.
      waitForTransactionReceipt: (args) => waitForReceiptEarly(client, args),
      getCode: (args) => client.getCode(args),
    },
    { confirmationTimeoutMs: TIMEOUT_MS },
  );
  const facilitator = new x402Facilitator();
  registerExactEvmScheme(facilitator, { signer, networks: NETWORK });
  return {
    verify: (payload, requirements) => facilitator.verify(payload, requirements),
    settle: (payload, requirements) => facilitator.settle(payload, requirements),
    getSupported: async () =>
      facilitator.getSupported() as Awaited<ReturnType<FacilitatorClient["getSupported"]>>,
  };
}

let paid: ((request: NextRequest) => Promise<NextResponse<unknown>>) | undefined;

/** Built on first request so `next build` does not need the chain's environment. */
function paidHandler() {
  paid ??= withX402(
    (request: NextRequest) => storeItem(request, 200),
    {
      accepts: {
        scheme: "exact",
        network: NETWORK,
        payTo: required("X402_PAY_TO"),
        maxTimeoutSeconds: 120,
        price: {
          amount: "10000",
          asset: required("X402_ASSET"),
          extra: {
            name: process.env.X402_ASSET_NAME ?? "USD Coin",
            version: process.env.X402_ASSET_VERSION ?? "2",
          },
        },
      },
      description: "Submitting feedback",
      mimeType: "application/json",
    },
    new x402ResourceServer(inProcessFacilitator()).register(NETWORK, new ExactEvmScheme()),
  );
  return paid;
}

export const POST = (request: NextRequest) => paidHandler()(request);
export { GET } from "@/scripts/bench/baseline-store";
