import "server-only";
import { Address } from "ox";
import { SignatureEnvelope, TxEnvelopeTempo } from "ox/tempo";
import { fromRlp, type Hex, hexToBytes, numberToBytes, toRlp } from "viem";
import { Transaction } from "viem/tempo";
import { nativeSecp256k1, recoverSigner } from "./ecdsa";

/** A Tempo transaction as viem's `Transaction.deserialize` reads it. */
export type TempoTransaction = ReturnType<typeof Transaction.deserialize>;

/**
 * A signed Tempo transaction read as viem's `Transaction.deserialize` reads it, its secp256k1 sender
 * recovered by libsecp256k1 (lib/README.md). Only a 0x76 envelope ending in a secp256k1 signature takes this
 * way; anything else (another signature, a keychain, whatever ox refuses) is read by viem itself.
 */
export function deserializeTempoTransaction(serialized: Hex): TempoTransaction {
  if (nativeSecp256k1 && serialized.startsWith("0x76")) {
    try {
      const read = readWithNativeRecovery(serialized);
      if (read) return read;
    } catch {
      // Whatever the short way cannot read, viem reads (or refuses) below, as it always would.
    }
  }
  return Transaction.deserialize(serialized);
}

/** A 0x76 envelope's signature and the same envelope without it, read without touching a curve. */
function signedParts(serialized: Hex) {
  const fields = fromRlp(`0x${serialized.slice(4)}`, "hex") as readonly unknown[];
  // ox reads the signature from the 14th field, or from the 15th when the 14th is a key authorization.
  const at = Array.isArray(fields[13]) ? 14 : 13;
  const signatureField = fields[at];
  if (fields.length !== at + 1 || typeof signatureField !== "string") return null;
  const signature = SignatureEnvelope.deserialize(signatureField as Hex);
  const unsigned = `0x76${toRlp(fields.slice(0, at) as Hex[]).slice(2)}` as const;
  return { signature, unsigned };
}

/** What the sender signed: the envelope's sign payload, as ox computes it. */
function signPayloadOf(unsigned: Hex, signature: SignatureEnvelope.SignatureEnvelope) {
  return TxEnvelopeTempo.getSignPayload(
    TxEnvelopeTempo.from({ ...TxEnvelopeTempo.deserialize(unsigned as `0x76${string}`), signature }),
  );
}

function recoverSecp256k1(payload: Hex, signature: SignatureEnvelope.Secp256k1): string | null {
  const { r, s, yParity } = signature.signature;
  if (yParity !== 0 && yParity !== 1) return null;
  return recoverSigner(
    hexToBytes(payload),
    numberToBytes(r, { size: 32 }),
    numberToBytes(s, { size: 32 }),
    yParity,
  );
}

function readWithNativeRecovery(serialized: Hex): TempoTransaction | null {
  const parts = signedParts(serialized);
  if (parts?.signature.type !== "secp256k1") return null;
  const { signature, unsigned } = parts;
  // The same envelope without its signature: nothing to recover, so neither ox nor viem touches a curve.
  const transaction = Transaction.deserialize(unsigned) as TempoTransaction & { from?: Hex };
  // A sender written in the envelope (the fee payer's format) is taken as ox takes it, unrecovered.
  let from = transaction.from;
  if (from === undefined) {
    from = (recoverSecp256k1(signPayloadOf(unsigned, signature), signature) ?? undefined) as Hex | undefined;
  }
  return { ...transaction, signature, ...(from === undefined ? {} : { from }) } as TempoTransaction;
}

/**
 * The lowercase address whose key provably signed a Tempo transaction, checked offline: a secp256k1 signer,
 * or the owner of a P-256 or WebAuthn key that verifies; the sender it names is only a claim. Null for what
 * only the chain can check (an access key, a configurable account) and for anything unsigned or out of shape.
 */
export function provenTempoSender(serialized: Hex): string | null {
  if (!serialized.startsWith("0x76")) return null;
  try {
    const parts = signedParts(serialized);
    if (!parts) return null;
    const { signature, unsigned } = parts;
    const payload = signPayloadOf(unsigned, signature);
    if (signature.type === "secp256k1") return recoverSecp256k1(payload, signature);
    if (signature.type === "p256" || signature.type === "webAuthn") {
      const owner = Address.fromPublicKey(signature.publicKey);
      return SignatureEnvelope.verify(signature, { address: owner, payload }) ? owner.toLowerCase() : null;
    }
    return null;
  } catch {
    return null;
  }
}
