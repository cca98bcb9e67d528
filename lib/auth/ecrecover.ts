import "server-only";
import { createRequire } from "node:module";
import * as Secp256k1 from "ox/Secp256k1";
import { keccak256 } from "viem";

type Native = {
  ecdsaRecover(sig: Uint8Array, recid: number, msg32: Uint8Array, compressed: boolean): Uint8Array;
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

/**
 * The address that signed `hash` with (r, s, yParity), or null when no key did: r or s out of range, or no
 * curve point for r. Every signed read recovers one signature, so this is the sign-in's hot path.
 *
 * libsecp256k1 (the `secp256k1` package's prebuilt native binding) recovers a key in about 50 µs on this
 * machine; the pure-JS curve that ox and viem use takes about 1.4 ms, most of a signed read's own cost.
 * Both accept the same signatures, high s included, as Ethereum's ecrecover does (a property test checks
 * them against each other). Where the native binding cannot load (a platform without a prebuild), the
 * pure-JS curve answers: slower, never different.
 */
export function recoverSigner(hash: Uint8Array, r: Uint8Array, s: Uint8Array, yParity: 0 | 1): string | null {
  if (hash.length !== 32 || r.length !== 32 || s.length !== 32) return null;
  return native ? recoverNative(native, hash, r, s, yParity) : recoverPureJs(hash, r, s, yParity);
}

/** Both implementations by name, so a test can hold them to the same answers. */
export const recoverWith = {
  native: native && ((...args: Args) => recoverNative(native, ...args)),
  pureJs: (...args: Args) => recoverPureJs(...args),
};
type Args = [hash: Uint8Array, r: Uint8Array, s: Uint8Array, yParity: 0 | 1];

/** Which implementation answers in this process, as the bench reports it. */
export const ecrecoverImplementation = native ? "libsecp256k1" : "pure-js";

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
    const address = Secp256k1.recoverAddress({
      payload: hash,
      signature: { r: toBigInt(r), s: toBigInt(s), yParity },
    });
    return address.toLowerCase();
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
