import {
  type Chain,
  type Client,
  getAddress,
  type Hash,
  type TransactionReceipt,
  type Transport,
} from "viem";
import { readContract } from "viem/actions";
import { chainHead, firstBlockAtOrAfter, lapsed } from "@/lib/chain/blocks";
import {
  authorizationCanceledEvent,
  authorizationUsedEvent,
  eip3009Abi,
  eip3009Events,
} from "@/lib/chain/eip3009";
import { findFirstLog } from "@/lib/chain/logs";
import { lookupReceipt } from "@/lib/chain/receipts";

/** The payment an EIP-3009 authorization was offered for. */
export type AuthorizedTransfer = {
  asset: `0x${string}`;
  from: `0x${string}`;
  to: `0x${string}`;
  value: bigint;
  nonce: `0x${string}`;
};

/**
 * Whether a receipt proves the payment: success, this authorization's AuthorizationUsed log, then right after
 * it, from the same token, the Transfer of exactly `value` from payer to recipient. As the token emits the
 * pair together, no transfer serves two credentials and a nonce burned otherwise (a cancel) proves nothing.
 */
export function provesPayment(receipt: TransactionReceipt, expected: AuthorizedTransfer): boolean {
  if (receipt.status !== "success") return false;
  const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();
  const logs = [...receipt.logs]
    .filter((log) => same(log.address, expected.asset))
    .sort((a, b) => a.logIndex - b.logIndex);
  const events = eip3009Events(logs);
  for (const [i, log] of events.entries()) {
    if (log.eventName !== "AuthorizationUsed") continue;
    const { authorizer, nonce } = log.args;
    if (!same(authorizer, expected.from) || !same(nonce, expected.nonce)) continue;
    const next = events[i + 1];
    if (next?.eventName !== "Transfer" || next.logIndex !== log.logIndex + 1) return false;
    const { from, to, value } = next.args;
    return (
      getAddress(from) === getAddress(expected.from) &&
      getAddress(to) === getAddress(expected.to) &&
      value === expected.value
    );
  }
  return false;
}

/** What the chain says became of an authorization: yes (with its transaction), no (with why), or not yet. */
export type AuthorizationVerdict =
  | { state: "paid"; txHash: Hash }
  | { state: "unpaid"; reason: string }
  | { state: "open" };

type AnyClient = Client<Transport, Chain | undefined>;

/**
 * An authorization's fate by the chain, never guessed (a failed read throws: the claim stays open). Unused:
 * open while valid, else unpaid. Used: its AuthorizationUsed log (from `searchFrom`) must have a receipt that
 * proves the transfer, else unpaid; no log found, open until expiry (a transfer needs a valid authorization).
 */
export async function authorizationVerdict(
  client: AnyClient,
  expected: AuthorizedTransfer & { validBefore: bigint; searchFrom: bigint },
): Promise<AuthorizationVerdict> {
  const head = await chainHead(client);
  const used = await readContract(client, {
    address: expected.asset,
    abi: eip3009Abi,
    functionName: "authorizationState",
    args: [expected.from, expected.nonce],
    blockNumber: head.number,
  });
  // Once no block to come can be before validBefore, the token refuses the authorization for good;
  // only a fresh head can say so (lapsed throws otherwise), so a node left behind decides nothing.
  const expired = () => lapsed(head, expected.validBefore);
  if (!used) {
    return expired() ? { state: "unpaid", reason: "the authorization expired unused" } : { state: "open" };
  }
  const fromBlock = await firstBlockAtOrAfter(client, expected.searchFrom);
  const args = { authorizer: expected.from, nonce: expected.nonce };
  const range = { address: expected.asset, args, fromBlock, toBlock: head.number };
  const use = await findFirstLog(client, { ...range, event: authorizationUsedEvent });
  if (use?.transactionHash) {
    const receipt = await lookupReceipt(client, use.transactionHash);
    if (!receipt) return { state: "open" };
    return provesPayment(receipt, expected)
      ? { state: "paid", txHash: use.transactionHash }
      : { state: "unpaid", reason: "the authorization's nonce was used without paying this recipient" };
  }
  const cancel = await findFirstLog(client, { ...range, event: authorizationCanceledEvent });
  if (cancel) return { state: "unpaid", reason: "the payer canceled the authorization" };
  return expired()
    ? { state: "unpaid", reason: "the authorization's nonce was spent without a transfer while it was valid" }
    : { state: "open" };
}
