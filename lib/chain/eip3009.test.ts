import fc from "fast-check";
import {
  encodeAbiParameters,
  encodeEventTopics,
  getAddress,
  type Hex,
  hashTypedData,
  parseEventLogs,
} from "viem";
import { describe, expect, it } from "vitest";
import {
  eip3009Abi,
  eip3009Events,
  type TokenDomain,
  type TransferAuthorization,
  transferAuthorizationDigest,
  transferWithAuthorizationTypes,
} from "./eip3009";

const hex = (bytes: number) =>
  fc
    .uint8Array({ minLength: bytes, maxLength: bytes })
    .map((b) => `0x${Buffer.from(b).toString("hex")}` as Hex);

// Logs as a token writes them: transfers, used and canceled authorizations, and logs of other shapes.
const log = fc.oneof(
  fc
    .record({ from: hex(20), to: hex(20), value: fc.bigInt({ min: 0n, max: 2n ** 256n - 1n }) })
    .map((args) => ({
      topics: encodeEventTopics({ abi: eip3009Abi, eventName: "Transfer", args }),
      data: encodeAbiParameters([{ type: "uint256" }], [args.value]),
    })),
  fc.record({ authorizer: hex(20), nonce: hex(32) }).map((args) => ({
    topics: encodeEventTopics({ abi: eip3009Abi, eventName: "AuthorizationUsed", args }),
    data: "0x" as Hex,
  })),
  fc.record({ authorizer: hex(20), nonce: hex(32) }).map((args) => ({
    topics: encodeEventTopics({ abi: eip3009Abi, eventName: "AuthorizationCanceled", args }),
    data: "0x" as Hex,
  })),
  fc.record({ topics: fc.array(hex(32), { maxLength: 4 }), data: fc.oneof(hex(0), hex(32), hex(64)) }),
  // A known event's first topic on a log of another shape (an ERC-721 transfer indexes its token id).
  fc
    .record({
      event: fc.constantFrom("Transfer" as const, "AuthorizationUsed" as const),
      rest: fc.array(hex(32), { maxLength: 3 }),
      data: fc.oneof(hex(0), hex(32), hex(64)),
    })
    .map(({ event, rest, data }) => ({
      topics: [encodeEventTopics({ abi: eip3009Abi, eventName: event })[0]!, ...rest],
      data,
    })),
);

describe("EIP-3009 events read from a receipt's logs", () => {
  it("are the Transfer and AuthorizationUsed events viem decodes, in order, with the same arguments, odd shapes left out", () => {
    fc.assert(
      fc.property(fc.array(log, { maxLength: 8 }), (drawn) => {
        const logs = drawn.map((l, logIndex) => ({ ...l, topics: l.topics as [Hex, ...Hex[]], logIndex }));
        // viem also reads a Transfer with a fourth topic (an ERC-721 transfer's token id); it is no payment.
        const standard = logs.filter((l) => l.topics.length === 3);
        const expected = parseEventLogs({ abi: eip3009Abi, logs: standard as never, strict: true })
          .filter((e) => e.eventName === "Transfer" || e.eventName === "AuthorizationUsed")
          .map((e) => ({ eventName: e.eventName, logIndex: e.logIndex, args: e.args }));
        expect(eip3009Events(logs)).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  });
});

// An address as a payload may spell it: lower case, checksummed, or a mixed case that may break the checksum.
const spelledAddress = fc
  .tuple(hex(20), fc.constantFrom("lower", "checksum", "mixed"), fc.integer({ min: 2, max: 41 }))
  .map(([address, spelling, flip]) => {
    if (spelling === "lower") return address;
    const checksummed = getAddress(address);
    if (spelling === "checksum") return checksummed;
    const c = checksummed[flip]!;
    const flipped = c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase();
    return `${checksummed.slice(0, flip)}${flipped}${checksummed.slice(flip + 1)}` as Hex;
  });
const uint = fc.oneof(
  fc.bigInt({ min: 0n, max: 2n ** 256n - 1n }),
  fc.constantFrom(0n, 2n ** 256n - 1n, 2n ** 256n, -1n),
);

describe("transferAuthorizationDigest", () => {
  const digestOrError = (fn: () => Hex) => {
    try {
      return fn();
    } catch {
      return "refused";
    }
  };

  it("is viem's hashTypedData for a TransferWithAuthorization, refusals included", () => {
    fc.assert(
      fc.property(
        fc.record({
          name: fc.constantFrom("USD Coin", "USDC", "Bridged USDC (Stargate)"),
          version: fc.constantFrom("1", "2"),
          chainId: fc.integer({ min: 1, max: 2 ** 40 }),
          verifyingContract: hex(20).map(getAddress),
        }),
        fc.record({
          from: spelledAddress,
          to: spelledAddress,
          value: uint,
          validAfter: uint,
          validBefore: uint,
          nonce: hex(32),
        }),
        (domain: TokenDomain, message: TransferAuthorization) => {
          const ours = digestOrError(() => transferAuthorizationDigest(domain, message));
          const viems = digestOrError(() =>
            hashTypedData({
              types: transferWithAuthorizationTypes,
              primaryType: "TransferWithAuthorization",
              domain,
              message,
            }),
          );
          expect(ours).toBe(viems);
        },
      ),
      { numRuns: 500 },
    );
  });
});
