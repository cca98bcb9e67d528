import "server-only";
import { signOwnershipProof } from "@/lib/chain/ownership-proof";
import { env, type ServerEnv } from "@/lib/env";
import { docsLinks } from "@/lib/http/docs";
import { PAID_OPERATIONS } from "@/lib/schemas/operations/catalog";
import { agentGuidance, paymentProtocols, priceOf } from "./catalog";

/**
 * The /.well-known/x402 document: the paid resources on the public origin with their price and how
 * each protocol pays it. `resources` is the plain URL list discovery crawlers read, `instructions` the
 * agent guidance; `items` details each resource and `mpp.resources` lists the MPP way to pay each;
 * `ownershipProofs` proves to scanners that the receiving wallets belong to this origin.
 */
export function x402Discovery() {
  const e = env();
  const origin = e.PUBLIC_ORIGIN;
  const items = PAID_OPERATIONS.map((op) => {
    const { x402, mpp } = paymentProtocols(op);
    const price = priceOf(op);
    return {
      resource: `${origin}${op.path}`,
      method: op.method,
      operationId: op.operationId,
      description: op.summary,
      mimeType: "application/json",
      price: { amount: price.amount, currency: "USD", ...(price.dynamic ? { dynamic: price.dynamic } : {}) },
      accepts: x402 ? [{ ...x402, amount: price.x402Amount }] : [],
      mpp: { ...mpp, amount: price.mppAmount },
    };
  });
  const proofs = ownershipProofs(e);
  return {
    version: 1,
    resources: items.map((i) => i.resource),
    instructions: agentGuidance(),
    items,
    mpp: { resources: items.map(({ resource, mpp }) => ({ resource, ...mpp })) },
    // Signatures of the origin by the wallets it is paid to (lib/chain/ownership-proof.ts).
    ...(proofs.length ? { ownershipProofs: proofs } : {}),
    docs: docsLinks(),
  };
}

let refundProof: { source: string; proof: `0x${string}` } | undefined;

/**
 * The configured proofs (X402_PAY_TO's and MPP_RECIPIENT's, signed where their keys are kept), and the
 * refund wallet's, which a reward paid with x402 is paid to: its key is here, so it signs its own.
 */
function ownershipProofs(e: ServerEnv): string[] {
  const configured = e.X402_OWNERSHIP_PROOFS ?? [];
  const key = e.X402_REFUND_PRIVATE_KEY;
  if (!key) return configured;
  const source = `${key}|${e.PUBLIC_ORIGIN}`;
  if (refundProof?.source !== source) {
    refundProof = { source, proof: signOwnershipProof(e.PUBLIC_ORIGIN, key as `0x${string}`) };
  }
  return [...new Set([...configured, refundProof.proof])];
}
