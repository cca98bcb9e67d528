import fc from "fast-check";
import { Address, P256, Secp256k1 } from "ox";
import { SignatureEnvelope, TxEnvelopeTempo } from "ox/tempo";
import { fromRlp, type Hex, maxUint256, toRlp } from "viem";
import { privateKeyToAddress } from "viem/accounts";
import { Transaction } from "viem/tempo";
import { describe, expect, it } from "vitest";
import { nativeSecp256k1 } from "./ecdsa";
import { deserializeTempoTransaction, provenTempoSender } from "./tempo-transaction";

const hex = (bytes: number) =>
  fc
    .uint8Array({ minLength: bytes, maxLength: bytes })
    .map((b) => `0x${Buffer.from(b).toString("hex")}` as Hex);
const privateKey = hex(32).filter((k) => BigInt(k) > 0n && BigInt(k) < Secp256k1.noble.CURVE.n);
const N = Secp256k1.noble.CURVE.n;

// Tempo transactions as MPP payers sign them (an expiring nonce, a call or two), and others.
const unsignedTx = fc
  .record({
    chainId: fc.integer({ min: 1, max: 2 ** 31 }),
    calls: fc.array(fc.record({ to: hex(20), data: fc.oneof(hex(4), hex(68), hex(100)) }), {
      minLength: 1,
      maxLength: 3,
    }),
    nonceKey: fc.oneof(fc.constant(maxUint256), fc.bigInt({ min: 0n, max: 2n ** 64n })),
    nonce: fc.bigInt({ min: 0n, max: 1000n }),
    validBefore: fc.option(fc.integer({ min: 1, max: 2 ** 32 - 1 }), { nil: undefined }),
    gas: fc.bigInt({ min: 21_000n, max: 10_000_000n }),
    maxFeePerGas: fc.bigInt({ min: 1n, max: 10n ** 12n }),
    maxPriorityFeePerGas: fc.bigInt({ min: 0n, max: 10n ** 9n }),
    feeToken: fc.option(hex(20), { nil: undefined }),
  })
  // A tip above the fee cap is no transaction ox signs.
  .map((tx) => ({ ...tx, maxFeePerGas: tx.maxFeePerGas + tx.maxPriorityFeePerGas }));

function signed(tx: Record<string, unknown>, key: Hex) {
  const envelope = TxEnvelopeTempo.from(tx as never);
  const signature = Secp256k1.sign({ payload: TxEnvelopeTempo.getSignPayload(envelope), privateKey: key });
  return { envelope, signature, serialized: TxEnvelopeTempo.serialize(envelope, { signature }) as Hex };
}

/** Both readers' answer, or that they refused. */
const read = (fn: (x: Hex) => unknown, x: Hex) => {
  try {
    return { value: fn(x) };
  } catch {
    return { refused: true };
  }
};
const expectSameReading = (serialized: Hex) =>
  expect(read(deserializeTempoTransaction, serialized)).toEqual(read(Transaction.deserialize, serialized));

describe("reading a signed Tempo transaction with the sender recovered natively", () => {
  it("uses libsecp256k1 in this process", () => {
    expect(nativeSecp256k1).toBe(true);
  });

  it("reads what viem reads, its sender the signing key's address", () => {
    fc.assert(
      fc.property(unsignedTx, privateKey, (tx, key) => {
        const { serialized } = signed(tx, key);
        const ours = deserializeTempoTransaction(serialized) as { from?: string };
        expect(ours).toEqual(Transaction.deserialize(serialized));
        expect(ours.from).toBe(privateKeyToAddress(key).toLowerCase());
      }),
      { numRuns: 150 },
    );
  });

  it("reads a high-s signature, another signature, or a signature of no key as viem does", () => {
    fc.assert(
      fc.property(
        unsignedTx,
        privateKey,
        hex(32),
        hex(32),
        fc.integer({ min: 0, max: 2 }),
        (tx, key, r, s, kind) => {
          const { envelope, signature } = signed(tx, key);
          const odd =
            kind === 0
              ? { r: signature.r, s: N - signature.s, yParity: 1 - signature.yParity }
              : kind === 1
                ? { r: BigInt(r), s: BigInt(s), yParity: signature.yParity }
                : { r: 0n, s: signature.s, yParity: signature.yParity };
          let serialized: Hex;
          try {
            serialized = TxEnvelopeTempo.serialize(envelope, { signature: odd as never }) as Hex;
          } catch {
            return;
          }
          expectSameReading(serialized);
        },
      ),
      { numRuns: 150 },
    );
  });

  it("takes a sender written in the envelope, and reads any envelope it cannot take the short way as viem does", () => {
    fc.assert(
      fc.property(
        unsignedTx,
        privateKey,
        hex(20),
        fc.integer({ min: 0, max: 5 }),
        fc.uint8Array({ minLength: 1, maxLength: 8 }),
        (tx, key, sender, kind, junk) => {
          const { serialized } = signed(tx, key);
          const fields = fromRlp(`0x${serialized.slice(4)}`, "hex") as unknown as Hex[];
          const junkHex = `0x${Buffer.from(junk).toString("hex")}` as Hex;
          const variants: Hex[][] = [
            fields.map((f, i) => (i === 11 ? sender : f)), // the fee payer's format: the sender named
            fields.slice(0, 13), // no signature
            [...fields, junkHex], // a field too many
            fields.map((f, i) => (i === 13 ? junkHex : f)), // a signature of no known kind
            fields.map((f, i) => (i === 13 ? ([] as unknown as Hex) : f)), // a list where the signature goes
            fields.map((f, i) => (i === 0 ? ([junkHex] as unknown as Hex) : f)), // a chain id that is a list
          ];
          expectSameReading(`0x76${toRlp(variants[kind]!).slice(2)}`);
        },
      ),
      { numRuns: 200 },
    );
  });

  it("refuses what viem refuses: bytes that are no envelope", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), (bytes) => {
        expectSameReading(`0x76${Buffer.from(bytes).toString("hex")}`);
      }),
      { numRuns: 200 },
    );
  });
});

describe("the sender a Tempo transaction's signature proves", () => {
  it("is the signing key's address, and the account an access key claims to act for is no proof", () => {
    fc.assert(
      fc.property(unsignedTx, privateKey, hex(20), hex(20), (tx, key, account, sender) => {
        const { envelope, signature, serialized } = signed(tx, key);
        const signer = privateKeyToAddress(key).toLowerCase();
        expect(provenTempoSender(serialized)).toBe(signer);
        const fields = fromRlp(`0x${serialized.slice(4)}`, "hex") as unknown as Hex[];
        const named = `0x76${toRlp(fields.map((f, i) => (i === 11 ? sender : f))).slice(2)}` as Hex;
        expect(provenTempoSender(named)).not.toBe(sender.toLowerCase());
        const keychain = SignatureEnvelope.from({
          type: "keychain",
          userAddress: account,
          inner: SignatureEnvelope.from(signature),
          version: "v2",
        });
        expect(
          provenTempoSender(TxEnvelopeTempo.serialize(envelope, { signature: keychain }) as Hex),
        ).toBeNull();
      }),
      { numRuns: 50 },
    );
  });

  it("is a P-256 key's owner only when its signature verifies", () => {
    const key = P256.randomPrivateKey();
    const publicKey = P256.getPublicKey({ privateKey: key });
    const envelope = TxEnvelopeTempo.from({
      chainId: 1,
      calls: [{ to: "0x0000000000000000000000000000000000000001" }],
      nonceKey: maxUint256,
      validBefore: 100,
      gas: 21_000n,
      maxFeePerGas: 1n,
    } as never);
    const p256 = (payload: Hex) =>
      SignatureEnvelope.from({
        signature: P256.sign({ payload, privateKey: key }),
        publicKey,
        prehash: false,
      });
    const good = TxEnvelopeTempo.serialize(envelope, {
      signature: p256(TxEnvelopeTempo.getSignPayload(envelope)),
    }) as Hex;
    expect(provenTempoSender(good)).toBe(Address.fromPublicKey(publicKey).toLowerCase());
    const forged = TxEnvelopeTempo.serialize(envelope, { signature: p256(`0x${"00".repeat(32)}`) }) as Hex;
    expect(provenTempoSender(forged)).toBeNull();
  });
});
