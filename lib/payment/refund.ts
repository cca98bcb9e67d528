import "server-only";
import {
  type Account,
  type Chain,
  type Client,
  createWalletClient,
  getAddress,
  type Hash,
  type Hex,
  keccak256,
  maxUint256,
  nonceManager,
  parseSignature,
  stringToHex,
  type Transport,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { getBlockNumber, readContract, writeContract } from "viem/actions";
import { firstBlockAtOrAfter } from "@/lib/chain/blocks";
import { authorizationUsedEvent, eip3009Abi, transferWithAuthorizationTypes } from "@/lib/chain/eip3009";
import { findFirstLog } from "@/lib/chain/logs";
import { lookupReceipt } from "@/lib/chain/receipts";
import { rpcTransport } from "@/lib/chain/rpc";
import { env } from "@/lib/env";
import { x402Chain, x402Reader } from "./facilitator";
import { assertLeaseHeld, holdLease } from "./signer-lease";
import { provesPayment } from "./x402-proof";

/** A resolver's x402 payment to pay back: to whom, how much, and the ledger row it came from. */
export type X402RefundTarget = { paymentId: string; payer: Hex; amount: bigint };

let wallet: Client<Transport, Chain, Account> | undefined;

/**
 * The refund wallet's one signing client in this process. Its nonce manager hands out sequential
 * nonces, so concurrent refunds never collide on one.
 */
function refundWallet(): Client<Transport, Chain, Account> {
  const key = env().X402_REFUND_PRIVATE_KEY;
  if (!key) throw new Error("X402_REFUND_PRIVATE_KEY is not set: x402 rewards are not offered");
  wallet ??= createWalletClient({
    account: privateKeyToAccount(key as Hex, { nonceManager }),
    chain: x402Chain(),
    transport: rpcTransport(env().X402_RPC_URL, { timeout: env().X402_TIMEOUT_MS }),
    pollingInterval: 250,
  });
  return wallet;
}

/**
 * Takes this instance's lock on the refund wallet (its nonces are sequential: only one instance may
 * send from it at a time); false while another instance holds it, which then sends the refunds.
 */
export async function leaseRefundWallet(): Promise<boolean> {
  const client = refundWallet();
  const lease = await holdLease(client.account.address);
  if (lease === "taken") nonceManager.reset({ address: client.account.address, chainId: client.chain.id });
  return lease !== null;
}

/** Where x402 rewards are paid to, and x402 refunds come from. */
export function refundWalletAddress(): `0x${string}` {
  return refundWallet().account.address;
}

/**
 * The refund as an EIP-3009 authorization from the refund wallet to the resolver, its nonce the memo
 * keccak256("refund:<payment id>"): the token accepts a nonce once, so a payment is refunded once at most by
 * the chain's own rule, however often or by whom it is sent, and the AuthorizationUsed log finds it again.
 */
function refundAuthorization(target: X402RefundTarget) {
  return {
    from: refundWalletAddress(),
    to: getAddress(target.payer),
    value: target.amount,
    validAfter: 0n,
    validBefore: maxUint256,
    nonce: keccak256(stringToHex(`refund:${target.paymentId}`)),
  };
}

/**
 * Whether the refund happened: the authorization's nonce is used, by the transaction whose receipt
 * moves the amount to the resolver. Every read that fails throws (unknown). `since` is when the refund
 * became owed; it cannot have happened before.
 */
export async function x402RefundState(
  target: X402RefundTarget,
  since: Date,
): Promise<{ state: "refunded"; txHash: Hash } | { state: "open" }> {
  const e = env();
  const auth = refundAuthorization(target);
  const client = x402Reader();
  const used = await readContract(client, {
    address: e.X402_ASSET as Hex,
    abi: eip3009Abi,
    functionName: "authorizationState",
    args: [auth.from, auth.nonce],
  });
  if (!used) return { state: "open" };
  const fromBlock = await firstBlockAtOrAfter(client, BigInt(Math.floor(since.getTime() / 1000) - 3600));
  const log = await findFirstLog(client, {
    address: e.X402_ASSET as Hex,
    event: authorizationUsedEvent,
    args: { authorizer: auth.from, nonce: auth.nonce },
    fromBlock,
    toBlock: await getBlockNumber(client, { cacheTime: 0 }),
  });
  const receipt = log?.transactionHash ? await lookupReceipt(client, log.transactionHash) : null;
  if (!log?.transactionHash || !receipt || !provesPayment(receipt, { asset: e.X402_ASSET as Hex, ...auth })) {
    // Only this wallet can spend its nonce, and it only ever refunds with it: the log must be found.
    throw new Error(`refund ${target.paymentId} is spent on chain but its transfer was not found yet`);
  }
  return { state: "refunded", txHash: log.transactionHash };
}

/**
 * Sends the refund: the refund wallet submits its own authorization. Sending it again, from here or
 * any other instance, can only revert: the token spends the nonce once. Returns the transaction hash.
 */
export async function sendX402Refund(target: X402RefundTarget): Promise<Hash> {
  const e = env();
  const client = refundWallet();
  // Only while this instance still holds the wallet: another may have taken it since leaseRefundWallet.
  await assertLeaseHeld(client.account.address);
  const auth = refundAuthorization(target);
  const signature = await client.account.signTypedData!({
    domain: {
      name: e.X402_ASSET_NAME,
      version: e.X402_ASSET_VERSION,
      chainId: client.chain.id,
      verifyingContract: e.X402_ASSET as Hex,
    },
    types: transferWithAuthorizationTypes,
    primaryType: "TransferWithAuthorization",
    message: auth,
  });
  const { r, s, v, yParity } = parseSignature(signature);
  return writeContract(client, {
    address: e.X402_ASSET as Hex,
    abi: eip3009Abi,
    functionName: "transferWithAuthorization",
    args: [
      auth.from,
      auth.to,
      auth.value,
      auth.validAfter,
      auth.validBefore,
      auth.nonce,
      Number(v ?? BigInt(yParity + 27)),
      r,
      s,
    ],
    chain: client.chain,
    account: client.account,
  });
}

/** The mined state of a refund transaction: its receipt, or null while the chain has none. Throws when unknown. */
export function x402RefundReceipt(txHash: Hash) {
  return lookupReceipt(x402Reader(), txHash);
}
