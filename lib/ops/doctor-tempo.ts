import "server-only";
import type { Hex, PublicClient } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { getCode, readContract } from "viem/actions";
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
import { receiverItem, receiverItemName } from "./doctor-receiver";

const PAYOUT_ITEM = "tempo payout wallet";
const CURRENCY_ITEM = "tempo currency";
const FEE_TOKEN_ITEM = "tempo fee token";
const USDC_E = "0x20c000000000000000000000b9537d11c60e8b50";

/** A token the service pays or charges in exists on this chain: else every MPP payment or reward fails. */
async function tokenItem(client: PublicClient, e: ServerEnv, item: string, variable: string, token: Hex) {
  const code = await getCode(client, { address: token });
  if (!code || code === "0x") {
    return fail(
      item,
      `no token at ${variable} (${token}) on Tempo chain ${e.TEMPO_CHAIN_ID}`,
      `set ${variable} to a TIP-20 token of this chain (USDC.e is ${USDC_E})`,
    );
  }
  return ok(item, `${variable} is ${await symbolOf(client, token)} (${token})`);
}

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
  const feeToken = e.TEMPO_FEE_TOKEN as Hex | undefined;
  const tokens = feeToken ? [CURRENCY_ITEM, FEE_TOKEN_ITEM] : [CURRENCY_ITEM];
  if (chain.status !== "ok") {
    const names = [...tokens, receiverItemName("tempo"), PAYOUT_ITEM];
    return [chain, ...names.map((name) => skip(name, "the tempo chain check failed"))];
  }
  const client = boundedClient(e.TEMPO_RPC_URL, timeoutMs) as PublicClient;
  const node = { timeoutMs, what: `the Tempo RPC (${hostOf(e.TEMPO_RPC_URL)})`, fix: "check TEMPO_RPC_URL" };
  const checked = await Promise.all([
    bounded(CURRENCY_ITEM, node, () =>
      tokenItem(client, e, CURRENCY_ITEM, "MPP_CURRENCY", e.MPP_CURRENCY as Hex),
    ),
    ...(feeToken
      ? [
          bounded(FEE_TOKEN_ITEM, node, () =>
            tokenItem(client, e, FEE_TOKEN_ITEM, "TEMPO_FEE_TOKEN", feeToken),
          ),
        ]
      : []),
  ]);
  // The payout wallet's balances are read from those tokens: a missing one is named above, not blamed on the RPC.
  const payout = checked.every((item) => item.status === "ok")
    ? await bounded(PAYOUT_ITEM, node, () => payoutItem(client, e))
    : skip(PAYOUT_ITEM, "a token it is paid or pays fees in is missing");
  const receiver = await bounded(receiverItemName("tempo"), node, () =>
    receiverItem(client, {
      chain: "tempo",
      network: `eip155:${e.TEMPO_CHAIN_ID}`,
      variable: "MPP_RECIPIENT",
      address: e.MPP_RECIPIENT,
      isContract: e.MPP_RECIPIENT_IS_CONTRACT,
    }),
  );
  return [chain, ...checked, receiver, payout];
}
