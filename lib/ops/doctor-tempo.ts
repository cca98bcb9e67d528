import "server-only";
import type { Hex, PublicClient } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { readContract } from "viem/actions";
import { Abis } from "viem/tempo";
import type { ServerEnv } from "@/lib/env";
import { formatUsd } from "@/lib/money";
import { serviceFeeToken } from "@/lib/payment/tempo";
import {
  bounded,
  boundedClient,
  chainItem,
  type DoctorItem,
  fail,
  hostOf,
  ok,
  skip,
  warn,
} from "./doctor-item";

const PAYOUT_ITEM = "tempo payout wallet";

const balanceOf = (client: PublicClient, token: Hex, address: Hex) =>
  readContract(client, { address: token, abi: Abis.tip20, functionName: "balanceOf", args: [address] });

const symbolOf = (client: PublicClient, token: Hex) =>
  readContract(client, { address: token, abi: Abis.tip20, functionName: "symbol" }).catch(() => token);

/**
 * The payout wallet holds the currency rewards are paid in, and the token its transactions pay fees
 * in (Tempo has no native gas: TEMPO_FEE_TOKEN, else MPP_CURRENCY, as lib/payment/tempo.ts sends).
 */
async function payoutItem(client: PublicClient, e: ServerEnv): Promise<DoctorItem> {
  const { address } = privateKeyToAccount(e.PAYOUT_PRIVATE_KEY as Hex);
  const currency = e.MPP_CURRENCY as Hex;
  const feeToken = serviceFeeToken(e);
  const sameToken = feeToken.toLowerCase() === currency.toLowerCase();
  const [held, fees, symbol, feeSymbol] = await Promise.all([
    balanceOf(client, currency, address),
    sameToken ? undefined : balanceOf(client, feeToken, address),
    symbolOf(client, currency),
    sameToken ? undefined : symbolOf(client, feeToken),
  ]);
  const owner = `${address} (the wallet of PAYOUT_PRIVATE_KEY)`;
  if ((fees ?? held) === 0n) {
    const token = sameToken ? symbol : `${feeSymbol} (TEMPO_FEE_TOKEN)`;
    return fail(
      PAYOUT_ITEM,
      `${owner} holds no ${token}, which its Tempo transactions pay fees in: no reward or MPP refund can be sent`,
      `send ${token} to ${address} on Tempo${sameToken ? ", or set TEMPO_FEE_TOKEN to a USD token it holds" : ""}`,
    );
  }
  const feesText = sameToken ? `, which also pays its fees` : `; ${formatUsd(fees!)} ${feeSymbol} for fees`;
  if (held < e.READY_MIN_PAYOUT_BALANCE) {
    return warn(
      PAYOUT_ITEM,
      `${owner} holds ${formatUsd(held)} ${symbol}, below READY_MIN_PAYOUT_BALANCE (${formatUsd(e.READY_MIN_PAYOUT_BALANCE)}): rewards may be refused`,
      `send ${symbol} to ${address} on Tempo`,
    );
  }
  return ok(PAYOUT_ITEM, `${owner} holds ${formatUsd(held)} ${symbol} for rewards${feesText}`);
}

/** The Tempo chain, then the payout wallet on it (skipped when the chain is wrong or silent). */
export async function tempoItems(e: ServerEnv, timeoutMs: number): Promise<DoctorItem[]> {
  const chain = await chainItem({
    item: "tempo chain",
    node: "the Tempo RPC",
    url: e.TEMPO_RPC_URL,
    urlVariable: "TEMPO_RPC_URL",
    idVariable: "TEMPO_CHAIN_ID",
    expected: e.TEMPO_CHAIN_ID,
    configured: String(e.TEMPO_CHAIN_ID),
    timeoutMs,
  });
  if (chain.status !== "ok") return [chain, skip(PAYOUT_ITEM, "the tempo chain check failed")];
  const client = boundedClient(e.TEMPO_RPC_URL, timeoutMs) as PublicClient;
  const node = { timeoutMs, what: `the Tempo RPC (${hostOf(e.TEMPO_RPC_URL)})`, fix: "check TEMPO_RPC_URL" };
  return [chain, await bounded(PAYOUT_ITEM, node, () => payoutItem(client, e))];
}
