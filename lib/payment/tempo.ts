import "server-only";
import {
  type Account,
  type Chain,
  type Client,
  createClient,
  decodeFunctionData,
  defineChain,
  encodeFunctionData,
  type Hex,
  keccak256,
  type Transport,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import {
  getBlockNumber,
  prepareTransactionRequest,
  readContract,
  sendRawTransaction,
  signTransaction,
} from "viem/actions";
import { tempo, tempoLocalnet, tempoModerato } from "viem/chains";
import { Abis } from "viem/tempo";
import { assertFresh, chainHead, firstBlockAtOrAfter } from "@/lib/chain/blocks";
import { findFirstLog } from "@/lib/chain/logs";
import { rpcTransport } from "@/lib/chain/rpc";
import { deserializeTempoTransaction } from "@/lib/chain/tempo-transaction";
import { env, type ServerEnv } from "@/lib/env";
import { withTimeout } from "./timeout";

/** The token the service's own Tempo transactions (payouts, refunds) pay fees in. */
export function serviceFeeToken(e: ServerEnv): Hex {
  return (e.TEMPO_FEE_TOKEN ?? e.MPP_CURRENCY) as Hex;
}

/** A viem chain for the configured Tempo network, reached only through the configured RPC. */
function tempoChain(): Chain {
  const e = env();
  const known = [tempo, tempoModerato].find((c) => c.id === e.TEMPO_CHAIN_ID);
  const chain = defineChain({
    ...(known ?? tempoLocalnet),
    id: e.TEMPO_CHAIN_ID,
    rpcUrls: { default: { http: [e.TEMPO_RPC_URL] } },
  });
  const feeToken = serviceFeeToken(e);
  // A local node runs the t4 rules (see scripts/devnet/tempo.ts); public networks keep viem's own.
  return (known ? chain.extend({ feeToken }) : chain.extend({ feeToken, hardfork: "t4" })) as Chain;
}

let reader: Client<Transport, Chain> | undefined;
let payer: Client<Transport, Chain, Account> | undefined;

/** A read-only Tempo client, every call bounded by the configured timeout. */
export function tempoReader(): Client<Transport, Chain> {
  reader ??= createClient({
    chain: tempoChain(),
    transport: rpcTransport(env().TEMPO_RPC_URL, { timeout: env().X402_TIMEOUT_MS }),
    pollingInterval: 250,
  });
  return reader;
}

/** The payout wallet's client: it sends rewards and MPP refunds. */
export function payoutClient(): Client<Transport, Chain, Account> {
  payer ??= createClient({
    account: privateKeyToAccount(env().PAYOUT_PRIVATE_KEY as Hex),
    chain: tempoChain(),
    transport: rpcTransport(env().TEMPO_RPC_URL, { timeout: env().X402_TIMEOUT_MS }),
    pollingInterval: 250,
  });
  return payer;
}

/** USDC.e (TIP-20) balance of an address, in base units. */
export async function tempoBalance(address: Hex): Promise<bigint> {
  return readContract(tempoReader(), {
    address: env().MPP_CURRENCY as Hex,
    abi: Abis.tip20,
    functionName: "balanceOf",
    args: [address],
  });
}

/**
 * A signed, not yet broadcast USDC.e transfer. Its bytes can land at most once, and only before
 * `validBefore` (its expiring nonce): after that instant, no block can include it.
 */
export type SignedTransfer = { rawTx: Hex; txHash: Hex; validBefore: bigint };

/**
 * Signs a USDC.e `transferWithMemo` from the payout wallet with a Tempo expiring nonce: the chain
 * accepts these bytes once, within about 25 seconds, never again. Storing them before broadcasting
 * lets a retry re-send the same bytes instead of paying twice.
 */
export async function signTransfer(to: Hex, amount: bigint, memo: Hex): Promise<SignedTransfer> {
  const client = payoutClient();
  const request = await prepareTransactionRequest(client, {
    account: client.account,
    chain: client.chain,
    to: env().MPP_CURRENCY as Hex,
    data: encodeFunctionData({ abi: Abis.tip20, functionName: "transferWithMemo", args: [to, amount, memo] }),
    nonceKey: "expiring",
  } as never);
  const rawTx = (await signTransaction(client, request as never)) as Hex;
  return { rawTx, txHash: keccak256(rawTx), validBefore: transferValidBefore(rawTx) };
}

/** The instant (seconds) after which signed Tempo bytes can never be included; 0 when they carry none. */
export function transferValidBefore(rawTx: Hex): bigint {
  const validBefore = (deserializeTempoTransaction(rawTx) as { validBefore?: number | bigint }).validBefore;
  return validBefore === undefined ? 0n : BigInt(validBefore);
}

/** The memo a signed USDC.e `transferWithMemo` carries; null for bytes that make no such transfer. */
export function transferMemoOf(rawTx: Hex): Hex | null {
  const { calls } = deserializeTempoTransaction(rawTx) as { calls?: readonly { data?: Hex }[] };
  const data = calls?.length === 1 ? calls[0]?.data : undefined;
  if (!data) return null;
  try {
    const call = decodeFunctionData({ abi: Abis.tip20, data });
    return call.functionName === "transferWithMemo" ? (call.args[2] as Hex) : null;
  } catch {
    return null;
  }
}

/** Broadcasts signed bytes; re-sending bytes the chain already has is harmless. */
export async function broadcast(rawTx: Hex): Promise<void> {
  await sendRawTransaction(payoutClient(), { serializedTransaction: rawTx });
}

/** The Tempo chain's head: its clock decides when signed bytes have lapsed. */
export function tempoHead() {
  return chainHead(tempoReader());
}

/**
 * The USDC.e transfer from the payout wallet carrying `memo`, searched from `since` (when the transfer
 * became owed; it cannot be older) to the head; null when the whole span answered and none carries it.
 * A failed read, or a node too far behind the chain, throws: "could not search" is never "not found".
 */
export async function findTransferWithMemo(
  memo: Hex,
  since: Date,
): Promise<{ txHash: Hex; to: Hex; amount: bigint } | null> {
  const client = tempoReader();
  // A node left behind has not seen the latest transfers: its "none" would let a second one be signed.
  const head = await chainHead(client);
  assertFresh(head);
  const fromBlock = await firstBlockAtOrAfter(client, BigInt(Math.floor(since.getTime() / 1000) - 60));
  const event = Abis.tip20.find((item) => item.type === "event" && item.name === "TransferWithMemo");
  const log = await findFirstLog(client, {
    address: env().MPP_CURRENCY as Hex,
    event: event as Extract<(typeof Abis.tip20)[number], { type: "event"; name: "TransferWithMemo" }>,
    args: { from: payoutClient().account.address, memo },
    fromBlock,
    toBlock: head.number,
  });
  const found = log as { transactionHash: Hex; args: { to: Hex; amount: bigint } } | null;
  return found ? { txHash: found.transactionHash, to: found.args.to, amount: found.args.amount } : null;
}

/** How long the last answer to "does the Tempo RPC answer" holds, and how long asking may take. */
const PROBE = { freshMs: 5_000, timeoutMs: 1_500 };
const probe = globalThis as unknown as { __feedbackTempoProbe?: { at: number; up: Promise<boolean> } };

/**
 * Whether the Tempo RPC answers now: asked at most once every 5 s per process, bounded to 1.5 s. An MPP
 * payment made while it cannot be reached could not be verified or broadcast (its transaction lapses 25 s
 * after it is signed), so a 402 does not offer MPP then, as it leaves x402 out while its facilitator is down.
 */
export function tempoAnswers(): Promise<boolean> {
  const now = Date.now();
  const last = probe.__feedbackTempoProbe;
  // A reading from the future is stale too: a clock set back (or a test's moved clock) would keep it forever.
  if (!last || now - last.at > PROBE.freshMs || now < last.at) {
    const up = withTimeout(
      getBlockNumber(tempoReader(), { cacheTime: 0 }),
      PROBE.timeoutMs,
      "tempo probe",
    ).then(
      () => true,
      () => false,
    );
    probe.__feedbackTempoProbe = { at: now, up };
    return up;
  }
  return last.up;
}
