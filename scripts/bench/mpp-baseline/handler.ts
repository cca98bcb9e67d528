/**
 * The MPP baseline: POST /api/feedback paid through mppx's own Next.js handler and its in-memory replay
 * store, charging what our submit does on the same Tempo chain; mppx verifies, broadcasts and waits for the
 * receipt before the route runs. No ledger, no exactly-once across processes.
 */
import { Mppx, tempo } from "mppx/nextjs";
import { Store } from "mppx/server";
import { createClient, defineChain, type Hex } from "viem";
import { tempoLocalnet } from "viem/chains";
import { rpcTransport } from "@/lib/chain/rpc";
import { formatUsd } from "@/lib/money";
import { OPERATIONS } from "@/lib/schemas/operations/catalog";
import { required, storeItem } from "@/scripts/bench/baseline-store";

/** The devnet's Tempo chain as lib/payment/tempo.ts builds it: t4 rules, pathUSD (TEMPO_FEE_TOKEN) as fees. */
function tempoReader() {
  const rpcUrl = required("TEMPO_RPC_URL");
  const chain = defineChain({
    ...tempoLocalnet,
    id: Number(required("TEMPO_CHAIN_ID")),
    rpcUrls: { default: { http: [rpcUrl] } },
  }).extend({ feeToken: (process.env.TEMPO_FEE_TOKEN ?? required("MPP_CURRENCY")) as Hex, hardfork: "t4" });
  return createClient({
    chain,
    transport: rpcTransport(rpcUrl, { timeout: Number(process.env.X402_TIMEOUT_MS ?? 20_000) }),
    pollingInterval: 250,
  });
}

let paid: ((request: Request) => Response | Promise<Response>) | undefined;

/** Built on first request so `next build` does not need the secret or the chain's environment. */
function paidHandler() {
  if (!paid) {
    const reader = tempoReader();
    const mppx = Mppx.create({
      methods: [
        tempo.charge({
          currency: required("MPP_CURRENCY") as Hex,
          recipient: required("MPP_RECIPIENT") as Hex,
          getClient: () => reader,
          store: Store.memory(),
        }),
      ],
      secretKey: required("MPP_SECRET_KEY"),
      realm: process.env.MPP_REALM ?? "mpp-baseline",
    });
    // The price of our submit in USD ("0.01"); mppx turns it into base units with the currency's 6 decimals.
    paid = mppx.charge({
      amount: formatUsd(OPERATIONS.feedback.price),
      description: "Submitting feedback",
      scope: "POST /api/feedback",
    })((request: Request) => storeItem(request, 201));
  }
  return paid;
}

export const POST = (request: Request) => paidHandler()(request);
export { GET } from "@/scripts/bench/baseline-store";
