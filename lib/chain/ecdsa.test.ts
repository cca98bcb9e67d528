import fc from "fast-check";
import * as Secp256k1 from "ox/Secp256k1";
import { TxEnvelopeTempo } from "ox/tempo";
import { hexToBytes, keccak256, parseTransaction, recoverTransactionAddress, toBytes } from "viem";
import { privateKeyToAccount, sign } from "viem/accounts";
import { Transaction } from "viem/tempo";
import { describe, expect, it, vi } from "vitest";
import {
  ecrecoverImplementation,
  nativeSigningAccount,
  recoverPublicKeyWith,
  recoverSigner,
  recoverWith,
  signDigestNatively,
} from "./ecdsa";

// The curve order: s and n - s recover the same key with the other parity, as Ethereum's ecrecover allows.
const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
const bytes32 = (x: bigint) => hexToBytes(`0x${x.toString(16).padStart(64, "0")}`);
const toBig = (b: Uint8Array) => BigInt(`0x${Buffer.from(b).toString("hex")}`);

const privateKey = fc
  .bigInt({ min: 1n, max: N - 1n })
  .map((k) => `0x${k.toString(16).padStart(64, "0")}` as const);
const digest = fc.uint8Array({ minLength: 0, maxLength: 64 }).map((m) => hexToBytes(keccak256(m)));

describe("recovering a signer", () => {
  it("uses the native library on this machine", () => {
    // CI and development machines are linux-x64, where the package ships a prebuilt binding.
    expect(ecrecoverImplementation).toBe("libsecp256k1");
    expect(recoverWith.native).toBeTypeOf("function");
  });

  it("names the signing key's address, for low and high s alike, in both implementations", async () => {
    await fc.assert(
      fc.asyncProperty(privateKey, digest, async (key, hash) => {
        const address = privateKeyToAccount(key).address.toLowerCase();
        const sig = await sign({ hash: `0x${Buffer.from(hash).toString("hex")}`, privateKey: key });
        const r = hexToBytes(sig.r);
        const s = hexToBytes(sig.s);
        const parity = sig.yParity as 0 | 1;
        expect(recoverSigner(hash, r, s, parity)).toBe(address);
        expect(recoverWith.pureJs(hash, r, s, parity)).toBe(address);
        const highS = bytes32(N - toBig(s));
        const flipped = (1 - parity) as 0 | 1;
        expect(recoverWith.native?.(hash, r, highS, flipped)).toBe(address);
        expect(recoverWith.pureJs(hash, r, highS, flipped)).toBe(address);
      }),
      { numRuns: 150 },
    );
  });

  it("gives the same answer in both implementations for any bytes, null where no key signed", () => {
    const edge = fc.constantFrom(0n, 1n, N - 1n, N, N + 1n, 2n ** 256n - 1n).map(bytes32);
    const scalar = fc.oneof(fc.uint8Array({ minLength: 32, maxLength: 32 }), edge);
    fc.assert(
      fc.property(digest, scalar, scalar, fc.constantFrom(0 as const, 1 as const), (hash, r, s, parity) => {
        const expected = recoverWith.pureJs(hash, r, s, parity);
        expect(recoverWith.native?.(hash, r, s, parity)).toBe(expected);
        if (toBig(r) === 0n || toBig(r) >= N || toBig(s) === 0n || toBig(s) >= N) expect(expected).toBeNull();
      }),
      { numRuns: 400 },
    );
  });

  it("refuses inputs of the wrong length without asking either library", () => {
    const hash = toBytes(keccak256("0x01"));
    const one = bytes32(1n);
    expect(recoverSigner(hash.subarray(1), one, one, 0)).toBeNull();
    expect(recoverSigner(hash, one.subarray(1), one, 0)).toBeNull();
    expect(recoverSigner(hash, one, new Uint8Array(33), 1)).toBeNull();
  });
});

describe("ox's recovery, as viem and mppx reach it", () => {
  type Recover = typeof recoverPublicKeyWith.ox;
  /** A recovery's point as bytes, or that it threw. */
  const outcome = (recover: Recover, signature: ThisParameterType<Recover>, hash: unknown) => {
    try {
      return { point: Buffer.from(recover.call(signature, hash).toRawBytes(false)).toString("hex") };
    } catch {
      return { threw: true };
    }
  };

  it("is libsecp256k1's in this process, and viem's reading of a Tempo transaction goes through it", () => {
    expect(Secp256k1.noble.Signature.prototype.recoverPublicKey).toBe(recoverPublicKeyWith.ox);
    expect(recoverPublicKeyWith.ox).not.toBe(recoverPublicKeyWith.pureJs);
    const key = `0x${"11".repeat(32)}` as const;
    const envelope = TxEnvelopeTempo.from({
      chainId: 1,
      calls: [{ to: `0x${"22".repeat(20)}` }],
      gas: 21_000n,
    });
    const signature = Secp256k1.sign({ payload: TxEnvelopeTempo.getSignPayload(envelope), privateKey: key });
    const serialized = TxEnvelopeTempo.serialize(envelope, { signature });
    const spy = vi.spyOn(Secp256k1.noble.Signature.prototype, "recoverPublicKey");
    try {
      expect((Transaction.deserialize(serialized) as { from?: string }).from).toBe(
        privateKeyToAccount(key).address.toLowerCase(),
      );
      expect(spy).toHaveBeenCalledTimes(1);
    } finally {
      spy.mockRestore();
    }
  });

  it("gives the curve's own point for any key and digest, low and high s, hash as hex or bytes", async () => {
    await fc.assert(
      fc.asyncProperty(privateKey, digest, async (key, hash) => {
        const sig = await sign({ hash: `0x${Buffer.from(hash).toString("hex")}`, privateKey: key });
        const r = BigInt(sig.r);
        const s = BigInt(sig.s);
        const parity = sig.yParity as 0 | 1;
        for (const signature of [
          new Secp256k1.noble.Signature(r, s).addRecoveryBit(parity),
          new Secp256k1.noble.Signature(r, N - s).addRecoveryBit(1 - parity),
        ]) {
          for (const message of [hash, Buffer.from(hash).toString("hex")]) {
            const ours = outcome(recoverPublicKeyWith.ox, signature, message);
            expect(ours).toEqual(outcome(recoverPublicKeyWith.pureJs, signature, message));
            expect(ours.point?.slice(2)).toBe(privateKeyToAccount(key).publicKey.slice(4));
          }
        }
      }),
      { numRuns: 100 },
    );
  });

  it("answers or throws as the curve does for any r, s, recovery id and message", () => {
    const scalar = fc.oneof(
      fc.bigInt({ min: 1n, max: N - 1n }),
      fc.constantFrom(1n, 2n, N - 1n, N - 2n, 0xfffffffffffffffffffffffffffffffffn),
    );
    const message = fc.oneof(
      digest,
      fc.uint8Array({ minLength: 0, maxLength: 64 }),
      fc.uint8Array({ minLength: 0, maxLength: 64 }).map((b) => Buffer.from(b).toString("hex")),
    );
    fc.assert(
      fc.property(scalar, scalar, fc.integer({ min: 0, max: 3 }), message, (r, s, recovery, hash) => {
        const signature = new Secp256k1.noble.Signature(r, s).addRecoveryBit(recovery);
        expect(outcome(recoverPublicKeyWith.ox, signature, hash)).toEqual(
          outcome(recoverPublicKeyWith.pureJs, signature, hash),
        );
      }),
      { numRuns: 400 },
    );
  });
});

describe("signing natively", () => {
  const address = fc
    .uint8Array({ minLength: 20, maxLength: 20 })
    .map((b) => `0x${Buffer.from(b).toString("hex")}` as const);

  it("gives the very signature viem's pure-JS signing gives, for any key and digest", async () => {
    await fc.assert(
      fc.asyncProperty(privateKey, digest, async (key, hash) => {
        const hex = `0x${Buffer.from(hash).toString("hex")}` as const;
        expect(signDigestNatively(hex, key)).toEqual(await sign({ hash: hex, privateKey: key }));
      }),
      { numRuns: 150 },
    );
  });

  it("signs transactions byte for byte as viem's account does, and the chain would name the same sender", async () => {
    await fc.assert(
      fc.asyncProperty(
        privateKey,
        address,
        fc.bigInt({ min: 0n, max: 2n ** 64n }),
        fc.nat({ max: 2 ** 31 }),
        fc.uint8Array({ maxLength: 300 }),
        fc.constantFrom("eip1559" as const, "legacy" as const),
        async (key, to, value, nonce, data, type) => {
          const tx =
            type === "eip1559"
              ? {
                  type,
                  chainId: 31337,
                  to,
                  value,
                  nonce,
                  gas: 90_000n,
                  maxFeePerGas: 2_000_000_000n,
                  maxPriorityFeePerGas: 1n,
                  data: `0x${Buffer.from(data).toString("hex")}` as const,
                }
              : { type, chainId: 31337, to, value, nonce, gas: 90_000n, gasPrice: 1_000_000_000n };
          const expected = await privateKeyToAccount(key).signTransaction(tx);
          const signed = await nativeSigningAccount(key).signTransaction(tx);
          expect(signed).toBe(expected);
          expect(parseTransaction(signed).nonce).toBe(nonce);
          expect(await recoverTransactionAddress({ serializedTransaction: signed as never })).toBe(
            privateKeyToAccount(key).address,
          );
        },
      ),
      { numRuns: 60 },
    );
  });
});
