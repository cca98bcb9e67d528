import { Hex, PersonalMessage, Secp256k1, Signature } from "ox";
import { getAddress, recoverMessageAddress } from "viem";

/**
 * Ownership proofs as x402scan reads them from /.well-known/x402: an EIP-191 (personal_sign) signature of
 * the origin's text (`https://host`, no trailing slash) by a wallet the origin's payments go to. A scanner
 * recovers each proof's signer and ranks the origin higher when it is one of the addresses it is paid to.
 */

/** The proof that the holder of `privateKey` receives `origin`'s payments. */
export function signOwnershipProof(origin: string, privateKey: `0x${string}`): `0x${string}` {
  const payload = PersonalMessage.getSignPayload(Hex.fromString(origin));
  return Signature.toHex(Secp256k1.sign({ payload, privateKey }));
}

/** The address that signed `proof` for `origin` (as x402scan recovers it); null when it recovers none. */
export async function ownershipProofSigner(origin: string, proof: string): Promise<`0x${string}` | null> {
  try {
    return getAddress(await recoverMessageAddress({ message: origin, signature: proof as `0x${string}` }));
  } catch {
    return null;
  }
}
