import { type AbiEvent, type Chain, type Client, getAddress, type Log, type Transport } from "viem";
import { getLogs } from "viem/actions";

/** An indexed address topic (the address left-padded to 32 bytes), as a checksummed address. */
export const topicAddress = (topic: `0x${string}`) => getAddress(`0x${topic.slice(26)}`);

/** Public RPCs cap a log query's block range (10,000 is a common limit); a longer search is cut up. */
const LOG_RANGE = 10_000n;

/**
 * The first log of `event` with these indexed `args`, searching [fromBlock, toBlock] oldest first in
 * ranges of `range` blocks; null when the whole span answered and none matched. A failed query throws.
 */
export async function findFirstLog<const E extends AbiEvent>(
  client: Client<Transport, Chain | undefined>,
  query: {
    address: `0x${string}`;
    event: E;
    args: Record<string, unknown>;
    fromBlock: bigint;
    toBlock: bigint;
    range?: bigint;
  },
): Promise<Log<bigint, number, false, E> | null> {
  const range = query.range ?? LOG_RANGE;
  for (let from = query.fromBlock; from <= query.toBlock; from += range) {
    const to = from + range - 1n < query.toBlock ? from + range - 1n : query.toBlock;
    const logs = await getLogs(client, {
      address: query.address,
      event: query.event,
      args: query.args as never,
      fromBlock: from,
      toBlock: to,
    });
    if (logs.length > 0) return logs[0] as unknown as Log<bigint, number, false, E>;
  }
  return null;
}
