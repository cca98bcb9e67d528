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
 * Block producers stamp blocks with the current time; none stamps one further back than this. So no
 * block still to come is older than max(head, now - this), whatever an idle chain's head says.
 */
const BLOCK_CLOCK_SKEW_SECONDS = 60n;

/**
 * Whether a transaction valid only before `validBefore` (seconds) can no longer be included: every
 * block still to come is at least as late as the head and as the wall clock less the skew above.
 */
export function lapsed(head: { timestamp: bigint }, validBefore: bigint, nowMs = Date.now()): boolean {
  const wall = BigInt(Math.floor(nowMs / 1000)) - BLOCK_CLOCK_SKEW_SECONDS;
  const earliestNext = head.timestamp > wall ? head.timestamp : wall;
  return earliestNext >= validBefore;
}
