import fc from "fast-check";
import { encodeAbiParameters, encodeEventTopics, type Hex, parseEventLogs } from "viem";
import { Abis } from "viem/tempo";
import { describe, expect, it } from "vitest";
import { transferWithMemoLogs } from "./tip20";

const hex = (bytes: number) =>
  fc
    .uint8Array({ minLength: bytes, maxLength: bytes })
    .map((b) => `0x${Buffer.from(b).toString("hex")}` as Hex);
const topic0 = (eventName: "TransferWithMemo" | "Transfer") =>
  encodeEventTopics({ abi: Abis.tip20, eventName })[0] as Hex;

// Logs as a TIP-20 token writes them, beside other events and logs of odd shapes.
const log = fc.oneof(
  fc
    .record({
      from: hex(20),
      to: hex(20),
      amount: fc.bigInt({ min: 0n, max: 2n ** 256n - 1n }),
      memo: hex(32),
    })
    .map((args) => ({
      topics: encodeEventTopics({ abi: Abis.tip20, eventName: "TransferWithMemo", args }),
      data: encodeAbiParameters([{ type: "uint256" }], [args.amount]),
    })),
  fc
    .record({ from: hex(20), to: hex(20), amount: fc.bigInt({ min: 0n, max: 2n ** 256n - 1n }) })
    .map((args) => ({
      topics: encodeEventTopics({ abi: Abis.tip20, eventName: "Transfer", args }),
      data: encodeAbiParameters([{ type: "uint256" }], [args.amount]),
    })),
  fc.record({ topics: fc.array(hex(32), { maxLength: 5 }), data: fc.oneof(hex(0), hex(32), hex(64)) }),
  // The event's first topic on a log of another shape.
  fc
    .record({ rest: fc.array(hex(32), { maxLength: 4 }), data: fc.oneof(hex(0), hex(31), hex(32), hex(64)) })
    .map(({ rest, data }) => ({ topics: [topic0("TransferWithMemo"), ...rest], data })),
);

describe("TIP-20 TransferWithMemo events read from a receipt's logs", () => {
  it("are the events viem's strict decoder finds, in order, with the same arguments, odd shapes left out", () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(log, hex(20)), { maxLength: 8 }), (drawn) => {
        const logs = drawn.map(([l, address], logIndex) => ({
          ...l,
          address,
          topics: l.topics as [Hex, ...Hex[]],
          logIndex,
        }));
        const expected = parseEventLogs({
          abi: Abis.tip20,
          logs: logs as never,
          eventName: "TransferWithMemo",
        }).map((e) => ({ address: e.address, logIndex: e.logIndex, args: e.args }));
        expect(transferWithMemoLogs(logs)).toEqual(expected);
      }),
      { numRuns: 400 },
    );
  });
});
