import type { Chain, Client, Transport } from "viem";
import { getBlock } from "viem/actions";

type AnyClient = Client<Transport, Chain | undefined>;

/** The latest block's number and timestamp (seconds): the chain's own clock. */
export async function chainHead(client: AnyClient): Promise<{ number: bigint; timestamp: bigint }> {
  const block = await getBlock(client, { blockTag: "latest" });
  return { number: block.number, timestamp: block.timestamp };
}

/**
 * The first block whose timestamp is at or after `timestamp` (seconds), by binary search over block
 * timestamps (about log2(height) reads); the head's number + 1 when no block is that recent. Used to
 * start a log search where a payment's life began, whatever the chain's block time.
 */
export async function firstBlockAtOrAfter(client: AnyClient, timestamp: bigint): Promise<bigint> {
  const head = await chainHead(client);
  if (head.timestamp < timestamp) return head.number + 1n;
  let low = 0n;
  let high = head.number;
  while (low < high) {
    const middle = (low + high) / 2n;
    const block = await getBlock(client, { blockNumber: middle });
    if (block.timestamp < timestamp) low = middle + 1n;
    else high = middle;
  }
  return low;
}

/**
 * How far behind the wall clock a head may be and still decide anything: a healthy node is a block or two
 * behind and clocks agree within a second, so 30 s allows a slow answer. Safety does not rest on it (expiry
 * is read from the head's clock); it bounds how stale a view may decide, and how long "unknown" lasts.
 */
export const MAX_HEAD_AGE_SECONDS = 30n;

/** The node's head is too far behind the wall clock: what it says cannot decide anything (unknown). */
export class StaleHead extends Error {
  constructor(ageSeconds: bigint) {
    super(`the node's latest block is ${ageSeconds} s old: its view of the chain is too old to decide on`);
    this.name = "StaleHead";
  }
}

/** Throws StaleHead when `head` is more than MAX_HEAD_AGE_SECONDS behind the wall clock. */
export function assertFresh(head: { timestamp: bigint }, nowMs = Date.now()): void {
  const age = BigInt(Math.floor(nowMs / 1000)) - head.timestamp;
  if (age > MAX_HEAD_AGE_SECONDS) throw new StaleHead(age);
}

/**
 * Whether a transaction valid only before `validBefore` (seconds) can no longer be included, by the chain's
 * clock. Read the head before the lookups this makes final, so every block that could include it is in view;
 * only a fresh head decides, so a lagging node or fast wall clock never makes a live transfer look dead.
 */
export function lapsed(head: { timestamp: bigint }, validBefore: bigint, nowMs = Date.now()): boolean {
  assertFresh(head, nowMs);
  return head.timestamp >= validBefore;
}
