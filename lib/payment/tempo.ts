import "server-only";
import {
  type Account,
  type Chain,
  type Client,
  createClient,
  defineChain,
  encodeFunctionData,
  type Hex,
  keccak256,
  type Transport,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import {
  getBlockNumber,
  getContractEvents,
  getTransactionReceipt,
  prepareTransactionRequest,
  readContract,
  sendRawTransaction,
  signTransaction,
} from "viem/actions";
import { tempo, tempoLocalnet, tempoModerato } from "viem/chains";
import { Abis } from "viem/tempo";
import { env } from "@/lib/env";
import { rpcTransport } from "./rpc";

/** A viem chain for the configured Tempo network, reached only through the configured RPC. */
export function tempoChain(): Chain {
  const e = env();
  const known = [tempo, tempoModerato].find((c) => c.id === e.TEMPO_CHAIN_ID);
  const chain = defineChain({
    ...(known ?? tempoLocalnet),
    id: e.TEMPO_CHAIN_ID,
    rpcUrls: { default: { http: [e.TEMPO_RPC_URL] } },
  });
  const feeToken = (e.TEMPO_FEE_TOKEN ?? e.MPP_CURRENCY) as Hex;
  // A local node runs the t4 rules (see lib/devnet/tempo.ts); public networks keep viem's own.
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

/** A signed, not yet broadcast USDC.e transfer; its bytes can land at most once, and only before it expires. */
export type SignedTransfer = { rawTx: Hex; txHash: Hex };

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
  return { rawTx, txHash: keccak256(rawTx) };
}

/** Broadcasts signed bytes; re-sending bytes the chain already has is harmless. */
export async function broadcast(rawTx: Hex): Promise<void> {
  await sendRawTransaction(payoutClient(), { serializedTransaction: rawTx });
}

/** The mined outcome of a transaction, or null while it is not mined. */
export async function minedStatus(txHash: Hex): Promise<"success" | "reverted" | null> {
  try {
    return (await getTransactionReceipt(tempoReader(), { hash: txHash })).status;
  } catch {
    return null;
  }
}

const RECENT_BLOCKS = 100_000n;

/** A USDC.e transfer from the payout wallet carrying `memo`, if one was mined recently. */
export async function findTransferWithMemo(
  memo: Hex,
): Promise<{ txHash: Hex; to: Hex; amount: bigint } | null> {
  const client = tempoReader();
  const latest = await getBlockNumber(client);
  const logs = await getContractEvents(client, {
    address: env().MPP_CURRENCY as Hex,
    abi: Abis.tip20,
    eventName: "TransferWithMemo",
    args: { from: payoutClient().account.address, memo },
    fromBlock: latest > RECENT_BLOCKS ? latest - RECENT_BLOCKS : 0n,
    toBlock: latest,
  });
  const log = logs[0] as { transactionHash: Hex; args: { to: Hex; amount: bigint } } | undefined;
  return log ? { txHash: log.transactionHash, to: log.args.to, amount: log.args.amount } : null;
}
