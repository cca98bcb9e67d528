import "server-only";
import { getAddress } from "viem";
import { recoversTo } from "@/lib/chain/ecdsa";
import { transferAuthorizationDigest } from "@/lib/chain/eip3009";
import { AppError } from "@/lib/http/errors";
import type { Authorization } from "./exact-evm-scheme";
import type { X402Credential } from "./x402-credential";

/**
 * Whether an x402 credential's 65-byte signature is its named payer's own, by recovering the EIP-712
 * signer here: no RPC. False for anything else (a contract wallet's or an EIP-6492 signature, a signature
 * by another key, garbage), which only the facilitator's verification can settle.
 */
export function x402SignedByPayer(credential: X402Credential): boolean {
  const { payload, requirement } = credential;
  const extra = requirement.extra as { name?: unknown; version?: unknown } | undefined;
  const inner = payload.payload as { signature: string; authorization: Authorization };
  if (typeof extra?.name !== "string" || typeof extra.version !== "string") return false;
  const auth = inner.authorization;
  try {
    const digest = transferAuthorizationDigest(
      {
        name: extra.name,
        version: extra.version,
        chainId: Number(requirement.network.split(":")[1]),
        verifyingContract: getAddress(requirement.asset),
      },
      {
        from: auth.from,
        to: auth.to,
        value: BigInt(auth.value),
        validAfter: BigInt(auth.validAfter),
        validBefore: BigInt(auth.validBefore),
        nonce: auth.nonce,
      },
    );
    return recoversTo(auth.from, digest, inner.signature);
  } catch {
    return false;
  }
}

/**
 * The refusal of an x402 credential whose signature is not its payer's (the facilitator said so):
 * the ordinary 402, naming the field at fault. Any other refusal is passed on as it is.
 */
export function x402SignatureRefusal(reason: string): AppError {
  const errors = /signature/i.test(reason)
    ? [
        {
          field: "PAYMENT-SIGNATURE.payload.signature",
          message: "is not a signature of payload.authorization.from's for this authorization",
        },
      ]
    : undefined;
  return new AppError("payment-invalid", `The payment was refused: ${reason}.`, errors ? { errors } : {});
}
