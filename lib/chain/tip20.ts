import { type Hex, hexToBigInt, type Log, toEventSelector } from "viem";
import { Abis } from "viem/tempo";
import { topicAddress } from "./logs";

const transferWithMemoEvent = Abis.tip20.find(
  (item) => item.type === "event" && item.name === "TransferWithMemo",
)!;

// The event's first topic, hashed once: viem's parseEventLogs hashes all 17 events of the TIP-20 ABI
// again for every receipt it reads (0.66 ms of pure-JS keccak on this machine, against 0.008 ms here),
// and every MPP payment and every payout reads one.
const TRANSFER_WITH_MEMO_TOPIC = toEventSelector(transferWithMemoEvent);

/** A TIP-20 TransferWithMemo log, decoded. */
export type TransferWithMemo = {
  address: Hex;
  logIndex: number | null;
  args: { from: Hex; to: Hex; amount: bigint; memo: Hex };
};

/**
 * The TransferWithMemo events among `logs`, in their order, as viem's strict decoder reads them: the
 * event's topic, then from, to and memo, and the amount as the data's first word. A log of any other
 * shape is left out.
 */
export function transferWithMemoLogs(
  logs: readonly Pick<Log, "address" | "topics" | "data" | "logIndex">[],
): TransferWithMemo[] {
  const events: TransferWithMemo[] = [];
  for (const log of logs) {
    const [topic, from, to, memo] = log.topics;
    if (topic !== TRANSFER_WITH_MEMO_TOPIC || !from || !to || !memo) continue;
    if (!/^0x[0-9a-fA-F]{64}/.test(log.data)) continue;
    events.push({
      address: log.address,
      logIndex: log.logIndex,
      args: {
        from: topicAddress(from),
        to: topicAddress(to),
        amount: hexToBigInt(log.data.slice(0, 66) as Hex),
        memo,
      },
    });
  }
  return events;
}
