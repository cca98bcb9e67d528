/**
 * MPP baseline for `npm run bench`: POST /api/feedback paid with MPP through mppx's own Next.js handler
 * (`mppx/nextjs`) and its in-memory replay store (`Store.memory()`), charging what our submit does on the
 * same Tempo chain, currency and recipient, with an in-memory array as the store. mppx verifies the
 * payer's signed transaction, broadcasts it and waits for its receipt before the route runs. No ledger,
 * no exactly-once across processes: the floor to beat. Built and served with `next start` like ours.
 */
import { Mppx, tempo } from "mppx/nextjs";
import { Store } from "mppx/server";
import { NextResponse } from "next/server";
import { createClient, defineChain, type Hex } from "viem";
import { tempoLocalnet } from "viem/chains";
import { rpcTransport } from "@/lib/chain/rpc";
import { formatUsd } from "@/lib/money";
import { OPERATIONS } from "@/lib/schemas/operations/catalog";
import { storedCount, storeItem } from "@/scripts/bench/baseline-store";

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is required`);
  return value;
}

/**
 * The devnet's Tempo chain as lib/payment/tempo.ts builds it for a local node: t4 rules, and pathUSD
 * (TEMPO_FEE_TOKEN) as the fee token, since the local chain's payers pay their fees in it.
 */
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

async function submit(request: Request): Promise<Response> {
  const stored = await storeItem(request);
  return stored
    ? NextResponse.json(stored, { status: 201 })
    : NextResponse.json({ error: "invalid body" }, { status: 400 });
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
    })(submit);
  }
  return paid;
}

export const POST = (request: Request) => paidHandler()(request);

/** How many items the baseline stored: also its readiness probe. */
export const GET = () => NextResponse.json({ items: storedCount() });
