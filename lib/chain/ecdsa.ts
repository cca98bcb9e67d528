import "server-only";
import { createRequire } from "node:module";
import * as Secp256k1 from "ox/Secp256k1";
import {
  bytesToHex,
  type Hex,
  hexToBytes,
  keccak256,
  type LocalAccount,
  type SerializeTransactionFn,
  serializeTransaction,
  type TransactionSerializable,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";

type Native = {
  ecdsaRecover(sig: Uint8Array, recid: number, msg32: Uint8Array, compressed: boolean): Uint8Array;
  ecdsaSign(msg32: Uint8Array, seckey: Uint8Array): { signature: Uint8Array; recid: number };
};

/** The native binding only: the package's own fallback (elliptic) is slower than ox, so it is never used. */
function loadNative(): Native | null {
  if (process.env.FEEDBACK_PURE_JS_ECRECOVER === "1") return null;
  try {
    return createRequire(import.meta.url)("secp256k1/bindings") as Native;
  } catch {
    return null;
  }
}

const native = loadNative();

type Point = ReturnType<typeof Secp256k1.noble.ProjectivePoint.fromHex>;
type RecoverPublicKey = (this: { r: bigint; s: bigint; recovery?: number }, msgHash: unknown) => Point;

const SignatureClass = Secp256k1.noble.Signature as unknown as {
  prototype: { recoverPublicKey: RecoverPublicKey };
};
/** The curve's own recovery, kept before the native one takes its place. */
const pureJsRecoverPublicKey = SignatureClass.prototype.recoverPublicKey;
if (native) SignatureClass.prototype.recoverPublicKey = nativeRecoverPublicKey(native);

/**
 * ox's secp256k1 recovery done by libsecp256k1. viem reads a Tempo transaction's sender through ox (ours,
 * and mppx's check of an MPP credential), and this is where the pure-JS curve spent about a tenth of an MPP
 * call's CPU. The same point comes back. Anything the short way does not take (a hash that is not 32
 * bytes, a recovery id above 1, a signature that names no key) goes to the curve's own code, which answers
 * or throws exactly as it did.
 */
function nativeRecoverPublicKey(lib: Native): RecoverPublicKey {
  return function recoverPublicKey(msgHash) {
    const { r, s, recovery } = this;
    const hash =
      typeof msgHash === "string"
        ? /^[0-9a-fA-F]{64}$/.test(msgHash)
          ? Buffer.from(msgHash, "hex")
          : null
        : msgHash instanceof Uint8Array && msgHash.length === 32
          ? msgHash
          : null;
    if (hash && (recovery === 0 || recovery === 1)) {
      const signature = new Uint8Array(64);
      signature.set(Buffer.from(r.toString(16).padStart(64, "0"), "hex"), 0);
      signature.set(Buffer.from(s.toString(16).padStart(64, "0"), "hex"), 32);
      try {
        return Secp256k1.noble.ProjectivePoint.fromHex(lib.ecdsaRecover(signature, recovery, hash, false));
      } catch {
        // No key signed this: the curve's own code says so, in its own words.
      }
    }
    return pureJsRecoverPublicKey.call(this, msgHash);
  };
}

/**
 * The address that signed `hash` with (r, s, yParity), or null when no key did (r or s out of range, no curve
 * point for r). The sign-in's hot path: libsecp256k1 where it loads, else the pure-JS curve, with the same
 * answers, high s included (lib/README.md, "Signatures").
 */
export function recoverSigner(hash: Uint8Array, r: Uint8Array, s: Uint8Array, yParity: 0 | 1): string | null {
  if (hash.length !== 32 || r.length !== 32 || s.length !== 32) return null;
  return native ? recoverNative(native, hash, r, s, yParity) : recoverPureJs(hash, r, s, yParity);
}

// An ECDSA signature as wallets send it: r, s and v (0, 1, 27 or 28), nothing else, as viem reads it.
const ECDSA_SIGNATURE = /^0x[0-9a-fA-F]{128}(?:0[01]|1[bBcC])$/;

/**
 * Whether `signature` over `hash` is plain `address`'s, by ECDSA recovery here: no RPC. A contract
 * wallet never passes it (its signature does not recover to its address): its chain must be asked.
 */
export function recoversTo(address: string, hash: Hex, signature: string): boolean {
  if (!ECDSA_SIGNATURE.test(signature) || !/^0x[0-9a-fA-F]{64}$/.test(hash)) return false;
  const v = Number.parseInt(signature.slice(130), 16);
  const bytes = Buffer.from(signature.slice(2, 130), "hex");
  const recovered = recoverSigner(
    Buffer.from(hash.slice(2), "hex"),
    bytes.subarray(0, 32),
    bytes.subarray(32, 64),
    (v >= 27 ? v - 27 : v) as 0 | 1,
  );
  return recovered !== null && recovered === address.toLowerCase();
}

/** Both implementations by name, so a test can hold them to the same answers. */
export const recoverWith = {
  native: native && ((...args: Args) => recoverNative(native, ...args)),
  pureJs: (...args: Args) => recoverPureJs(...args),
};

/** ox's recovery of a public key, natively where the binding loads, and the curve's own: for the tests. */
export const recoverPublicKeyWith = {
  ox: SignatureClass.prototype.recoverPublicKey,
  pureJs: pureJsRecoverPublicKey,
};
type Args = [hash: Uint8Array, r: Uint8Array, s: Uint8Array, yParity: 0 | 1];

/** Which implementation answers in this process, as the bench reports it. */
export const ecrecoverImplementation = native ? "libsecp256k1" : "pure-js";

/** Whether libsecp256k1 answers in this process. */
export const nativeSecp256k1 = native !== null;

/** An ECDSA signature as viem writes one. */
type Signature = { r: Hex; s: Hex; v: bigint; yParity: 0 | 1 };

/**
 * Signs a 32-byte digest with libsecp256k1: the very signature viem's pure-JS `sign` gives (RFC 6979
 * nonce, low s), in about a twentieth of its time. Null where the native binding cannot load.
 */
export function signDigestNatively(hash: Hex, privateKey: Hex): Signature | null {
  if (!native) return null;
  const { signature, recid } = native.ecdsaSign(hexToBytes(hash), hexToBytes(privateKey));
  const yParity = recid as 0 | 1;
  return {
    r: bytesToHex(signature.subarray(0, 32)),
    s: bytesToHex(signature.subarray(32, 64)),
    v: yParity ? 28n : 27n,
    yParity,
  };
}

/**
 * viem's account for a private key, whose transactions are signed with libsecp256k1 (viem's own signing
 * elsewhere, and everywhere when the binding cannot load). Every x402 settlement signs a transaction.
 */
export function nativeSigningAccount(privateKey: Hex): LocalAccount {
  const account = privateKeyToAccount(privateKey);
  if (!native) return account;
  return {
    ...account,
    // As viem's signTransaction: an EIP-4844 transaction is signed without its sidecars.
    async signTransaction(transaction, options) {
      const serializer = (options?.serializer ??
        serializeTransaction) as SerializeTransactionFn<TransactionSerializable>;
      const signable = transaction.type === "eip4844" ? { ...transaction, sidecars: false } : transaction;
      const signature = signDigestNatively(
        keccak256(await serializer(signable as TransactionSerializable)),
        privateKey,
      );
      return serializer(transaction as TransactionSerializable, signature!);
    },
  } as LocalAccount;
}

function recoverNative(lib: Native, hash: Uint8Array, r: Uint8Array, s: Uint8Array, yParity: 0 | 1) {
  const signature = new Uint8Array(64);
  signature.set(r, 0);
  signature.set(s, 32);
  let publicKey: Uint8Array;
  try {
    publicKey = lib.ecdsaRecover(signature, yParity, hash, false);
  } catch {
    // r or s is zero or not below the curve order, or r names no point.
    return null;
  }
  return addressOf(publicKey.subarray(1));
}

function recoverPureJs(hash: Uint8Array, r: Uint8Array, s: Uint8Array, yParity: 0 | 1) {
  try {
    const signature = new Secp256k1.noble.Signature(toBigInt(r), toBigInt(s)).addRecoveryBit(yParity);
    const point = pureJsRecoverPublicKey.call(signature, hash);
    return addressOf(point.toRawBytes(false).subarray(1));
  } catch {
    return null;
  }
}

/** The lowercase address of an uncompressed public key's 64 coordinate bytes. */
function addressOf(xy: Uint8Array): string {
  return `0x${keccak256(xy).slice(-40)}`;
}

function toBigInt(bytes: Uint8Array): bigint {
  return BigInt(`0x${Buffer.from(bytes).toString("hex")}`);
}
