import "server-only";
import { FacilitatorTimeoutError, HTTPFacilitatorClient } from "@x402/core/server";
import { formatEther, formatUnits, type Hex, type PublicClient, parseAbi } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { getBalance, getGasPrice, readContract } from "viem/actions";
import type { ServerEnv } from "@/lib/env";
import { withTimeout } from "@/lib/payment/timeout";
import { assetDecimalsItem, assetDomainItem, DECIMALS_ITEM, DOMAIN_ITEM } from "./doctor-asset";
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

/** About what one transferWithAuthorization costs (a settlement, or a refund): FiatToken's is ~80k. */
const TRANSFER_GAS = 100_000n;
/** Fewer transactions' worth of gas than this is a warning: the wallet runs dry soon. */
const LOW_GAS_TRANSACTIONS = 100n;

const FACILITATOR_ITEM = "x402 facilitator";
const REFUND_ITEM = "x402 refund wallet";

/** Native units with at most 6 decimals: enough to act on, short enough to read. */
const native = (wei: bigint) => formatEther(wei).replace(/(\.\d{6})\d+$/, "$1");

/** A wallet that sends transferWithAuthorization on the x402 chain holds gas for it. */
function gasItem(
  item: string,
  e: ServerEnv,
  address: Hex,
  balance: bigint,
  gasPrice: bigint,
  variable: string,
) {
  const one = TRANSFER_GAS * (gasPrice > 0n ? gasPrice : 1n);
  const held = `${address} holds ${native(balance)} of the native token`;
  const fix = `send gas to ${address} on ${e.X402_NETWORK}, or replace its key in ${variable}`;
  if (balance < one) {
    return fail(item, `${held}, less than one transaction (about ${native(one)} at today's gas price)`, fix);
  }
  if (balance < one * LOW_GAS_TRANSACTIONS) {
    return warn(item, `${held}, fewer than ${LOW_GAS_TRANSACTIONS} transactions at today's gas price`, fix);
  }
  return ok(item, `${held}, about ${balance / one} transactions at today's gas price`);
}

type Remote = { item: DoctorItem; signers: Hex[] };

/** The addresses /supported names as signing on `network`: under the network itself or its family ("eip155:*"). */
function signersOn(signers: Record<string, string[]> | undefined, network: string): Hex[] {
  const family = `${network.split(":")[0]}:*`;
  const named = [...(signers?.[network] ?? []), ...(signers?.[family] ?? [])];
  return [...new Set(named.filter((a) => /^0x[0-9a-fA-F]{40}$/.test(a)))] as Hex[];
}

/**
 * A remote facilitator answers /supported with the exact scheme on X402_NETWORK, in x402 version 2, and names
 * the signers that send its settlements (whose gas the caller checks).
 */
async function remoteFacilitatorItem(e: ServerEnv, url: string, timeoutMs: number): Promise<Remote> {
  const node = `the facilitator (${hostOf(url)})`;
  const fix = "check X402_FACILITATOR_URL, and that the facilitator is up";
  try {
    const client = new HTTPFacilitatorClient({ url, timeoutMs });
    const { kinds, signers } = await withTimeout(client.getSupported(), timeoutMs, FACILITATOR_ITEM);
    if (kinds.some((k) => k.x402Version === 2 && k.scheme === "exact" && k.network === e.X402_NETWORK)) {
      const detail = `${node} supports the exact scheme on ${e.X402_NETWORK} (x402 version 2)`;
      return { item: ok(FACILITATOR_ITEM, detail), signers: signersOn(signers, e.X402_NETWORK) };
    }
    const offered =
      kinds.map((k) => `${k.scheme} on ${k.network} (v${k.x402Version})`).join(", ") || "nothing";
    const item = fail(
      FACILITATOR_ITEM,
      `${node} does not settle exact on ${e.X402_NETWORK} in x402 version 2; it supports ${offered}`,
      "set X402_FACILITATOR_URL to a facilitator for X402_NETWORK, or X402_FACILITATOR_PRIVATE_KEY instead",
    );
    return { item, signers: [] };
  } catch (error) {
    // Its messages may quote the URL: keep only the status or the kind of failure.
    const status = /\((\d{3})\)/.exec(error instanceof Error ? error.message : "")?.[1];
    const words =
      error instanceof FacilitatorTimeoutError || (error as Error)?.name === "TimeoutError"
        ? `no answer within ${timeoutMs} ms`
        : status
          ? `HTTP ${status}`
          : error instanceof TypeError
            ? "unreachable"
            : "an answer that is not a /supported document";
    return { item: fail(FACILITATOR_ITEM, `${node}: ${words}`, fix), signers: [] };
  }
}

const signerItem = (i: number) => `${FACILITATOR_ITEM} signer ${i + 1}`;

/** Each signer a remote facilitator names holds gas: one without settles nothing, and every payment waits. */
function remoteSignerItems(
  client: PublicClient,
  e: ServerEnv,
  remote: Remote,
  node: { timeoutMs: number; what: string; fix: string },
  gasPrice: Promise<bigint>,
): Promise<DoctorItem>[] {
  if (remote.item.status !== "ok") return [];
  if (!remote.signers.length) {
    const detail = `the facilitator names no signer for ${e.X402_NETWORK} in /supported: its gas cannot be checked`;
    const fix = "ask the facilitator's operator which wallets settle, and that they hold gas";
    return [Promise.resolve(warn(`${FACILITATOR_ITEM} signers`, detail, fix))];
  }
  return remote.signers.map((address, i) =>
    bounded(signerItem(i), node, async () => {
      const balance = await getBalance(client, { address });
      const item = gasItem(signerItem(i), e, address, balance, await gasPrice, "X402_FACILITATOR_URL");
      // Not a key of ours: the fix is the facilitator operator's, or another facilitator.
      const fix = `the facilitator at X402_FACILITATOR_URL signs with ${address}: it needs gas on ${e.X402_NETWORK}, or use another facilitator`;
      return item.status === "ok" ? item : { ...item, fix };
    }),
  );
}

const balanceOfAbi = parseAbi(["function balanceOf(address) view returns (uint256)"]);

/** The refund wallet pays its refunds' gas; the USDC it refunds is the x402 rewards paid into it. */
async function refundItem(client: PublicClient, e: ServerEnv, gasPrice: bigint): Promise<DoctorItem> {
  if (!e.X402_REFUND_PRIVATE_KEY) {
    return warn(
      REFUND_ITEM,
      "X402_REFUND_PRIVATE_KEY is not set: rewards are offered over MPP only, not x402",
      "set X402_REFUND_PRIVATE_KEY to a key with gas on X402_NETWORK to offer x402 rewards",
    );
  }
  const { address } = privateKeyToAccount(e.X402_REFUND_PRIVATE_KEY as Hex);
  const [balance, usdc] = await Promise.all([
    getBalance(client, { address }),
    // A wrong X402_ASSET is the asset items' error: here its balance is only informative.
    readContract(client, {
      address: e.X402_ASSET as Hex,
      abi: balanceOfAbi,
      functionName: "balanceOf",
      args: [address],
    }).catch(() => undefined),
  ]);
  const item = gasItem(REFUND_ITEM, e, address, balance, gasPrice, "X402_REFUND_PRIVATE_KEY");
  if (usdc === undefined) return item;
  const held = `${formatUnits(usdc, e.X402_ASSET_DECIMALS)} USDC to refund with (rewards paid with x402 arrive here)`;
  return { ...item, detail: `${item.detail}; ${held}` };
}

/** Every x402 item: the chain first, then what needs it (skipped when the chain is wrong or silent). */
export async function x402Items(e: ServerEnv, timeoutMs: number): Promise<DoctorItem[]> {
  const keys = e.X402_FACILITATOR_URL ? [] : (e.X402_FACILITATOR_PRIVATE_KEY ?? []);
  const keyItem = (i: number) => `${FACILITATOR_ITEM} key ${i + 1}`;
  const remote = e.X402_FACILITATOR_URL
    ? remoteFacilitatorItem(e, e.X402_FACILITATOR_URL, timeoutMs)
    : undefined;
  const expected = Number(e.X402_NETWORK.split(":")[1]);
  const chain = await chainItem({
    item: "x402 chain",
    node: "the X402 RPC",
    url: e.X402_RPC_URL,
    urlVariable: "X402_RPC_URL",
    idVariable: "X402_NETWORK",
    expected,
    configured: e.X402_NETWORK,
    timeoutMs,
  });
  const facilitator = remote ? await remote : undefined;
  const remoteItems = facilitator ? [facilitator.item] : [];
  if (chain.status !== "ok") {
    const because = "the x402 chain check failed";
    const signers = (facilitator?.signers ?? []).map((_, i) => signerItem(i));
    const names = [
      DOMAIN_ITEM,
      DECIMALS_ITEM,
      receiverItemName("x402"),
      ...keys.map((_, i) => keyItem(i)),
      ...signers,
      REFUND_ITEM,
    ];
    return [chain, ...remoteItems, ...names.map((name) => skip(name, because))];
  }
  const client = boundedClient(e.X402_RPC_URL, timeoutMs) as PublicClient;
  const node = { timeoutMs, what: `the X402 RPC (${hostOf(e.X402_RPC_URL)})`, fix: "check X402_RPC_URL" };
  const gasPrice = getGasPrice(client);
  gasPrice.catch(() => {});
  const items = await Promise.all([
    bounded(DOMAIN_ITEM, node, () => assetDomainItem(client, e, expected)),
    bounded(DECIMALS_ITEM, node, () => assetDecimalsItem(client, e)),
    bounded(receiverItemName("x402"), node, () =>
      receiverItem(client, {
        chain: "x402",
        network: e.X402_NETWORK,
        variable: "X402_PAY_TO",
        address: e.X402_PAY_TO,
        isContract: e.X402_PAY_TO_IS_CONTRACT,
      }),
    ),
    ...keys.map((key, i) =>
      bounded(keyItem(i), node, async () => {
        const { address } = privateKeyToAccount(key as Hex);
        const balance = await getBalance(client, { address });
        return gasItem(keyItem(i), e, address, balance, await gasPrice, "X402_FACILITATOR_PRIVATE_KEY");
      }),
    ),
    ...(facilitator ? remoteSignerItems(client, e, facilitator, node, gasPrice) : []),
    bounded(REFUND_ITEM, node, async () => refundItem(client, e, await gasPrice)),
  ]);
  return [chain, ...remoteItems, ...items];
}
