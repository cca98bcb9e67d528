import "server-only";
import { createHash } from "node:crypto";
import type { PaymentRequirements } from "@x402/core/types";
import { createJWS, createOfferJWS, type JWSSigner, OFFER_RECEIPT } from "@x402/extensions/offer-receipt";
import { keccak256 } from "viem";
import { privateKeyToAccount, sign } from "viem/accounts";
import { env } from "@/lib/env";

/**
 * x402's offer-and-receipt extension: the terms a 402 offers and the receipt of what a paid call delivered,
 * each signed (JWS, ES256K) with OFFER_RECEIPT_PRIVATE_KEY, a key that moves no money. Its public key is
 * published as did:web at /.well-known/did.json, where the extension's verifiers resolve the JWS `kid`, so
 * an agent can show either to anyone, who checks it without trusting us.
 */

/** The extension's payload version. */
const VERSION = 1;

type OfferReceiptKey = {
  signer: JWSSigner;
  /** The DID of this origin (did:web:<host, its port encoded>). */
  did: string;
  publicJwk: { kty: "EC"; crv: "secp256k1"; x: string; y: string };
};

let cached: { source: string; key: OfferReceiptKey | null } | undefined;

/** This service's signing key, or null when offers and receipts are not signed. */
function offerReceiptKey(): OfferReceiptKey | null {
  const e = env();
  const source = `${e.OFFER_RECEIPT_PRIVATE_KEY}|${e.PUBLIC_ORIGIN}`;
  if (cached?.source !== source) cached = { source, key: offerReceiptKeyOf(e) };
  return cached.key;
}

/** The signing key a configuration names, with its DID and public key; null when none is configured. */
export function offerReceiptKeyOf(e: {
  OFFER_RECEIPT_PRIVATE_KEY?: string | undefined;
  PUBLIC_ORIGIN: string;
}): OfferReceiptKey | null {
  const secret = e.OFFER_RECEIPT_PRIVATE_KEY;
  if (!secret) return null;
  const publicKey = privateKeyToAccount(secret as `0x${string}`).publicKey;
  const b64url = (hex: string) => Buffer.from(hex, "hex").toString("base64url");
  const publicJwk = {
    kty: "EC" as const,
    crv: "secp256k1" as const,
    x: b64url(publicKey.slice(4, 68)),
    y: b64url(publicKey.slice(68, 132)),
  };
  const did = `did:web:${encodeURIComponent(new URL(e.PUBLIC_ORIGIN).host)}`;
  // The key's own name: a receipt signed by a rotated-out key names a method the document no longer lists.
  const fragment = `offer-receipt-${keccak256(publicKey).slice(2, 10)}`;
  const signer: JWSSigner = {
    kid: `${did}#${fragment}`,
    format: "jws",
    algorithm: "ES256K",
    // JWS ES256K (RFC 8812): r || s over SHA-256 of the signing input. RFC 6979 nonces make it
    // deterministic, so the same receipt signed twice is the same text.
    sign: async (input) => {
      const hash = `0x${createHash("sha256").update(input).digest("hex")}` as const;
      const { r, s } = await sign({ hash, privateKey: secret as `0x${string}` });
      return Buffer.from(r.slice(2) + s.slice(2), "hex").toString("base64url");
    },
  };
  return { signer, did, publicJwk };
}

/**
 * A signed offer is the same for every caller of a route at one price: it is signed once and handed out again
 * for a sixth of its validity (10 s of 60), so an unpaid 402 costs no signature (ES256K, about a millisecond)
 * and each offer handed out still has at least five sixths of its validity ahead. At most OFFERS_KEPT of them,
 * the oldest dropped first (routes times prices are a handful; the bound is for the unexpected).
 */
const OFFERS_KEPT = 256;
const signedOffers = new Map<
  string,
  { signedAt: number; offer: Awaited<ReturnType<typeof createOfferJWS>> }
>();

/** The offer-receipt extension of a 402: the one requirement offered, signed; undefined when unsigned. */
export async function signedOfferExtension(resourceUrl: string, requirement: PaymentRequirements) {
  const key = offerReceiptKey();
  if (!key) return undefined;
  const terms = {
    acceptIndex: 0,
    scheme: requirement.scheme,
    network: requirement.network,
    asset: requirement.asset,
    payTo: requirement.payTo,
    amount: requirement.amount,
    offerValiditySeconds: requirement.maxTimeoutSeconds,
  };
  const id = JSON.stringify([key.signer.kid, resourceUrl, terms]);
  const now = Date.now() / 1000;
  let kept = signedOffers.get(id);
  if (!kept || now - kept.signedAt >= terms.offerValiditySeconds / 6 || now < kept.signedAt) {
    // The offer's validUntil is counted by the extension from its own clock reading, taken after this one.
    kept = { signedAt: now, offer: await createOfferJWS(resourceUrl, terms, key.signer) };
    signedOffers.delete(id);
    signedOffers.set(id, kept);
    if (signedOffers.size > OFFERS_KEPT) signedOffers.delete(signedOffers.keys().next().value!);
  }
  return { [OFFER_RECEIPT]: { info: { version: VERSION, offers: [kept.offer] } } };
}

/** Forgets every signed offer kept (the bench's anchor: an offer signed for every 402, as before). */
export function forgetSignedOffers() {
  signedOffers.clear();
}

/** What a paid call delivered, as its receipt names it. */
export type Delivered = {
  operation: string;
  /** The stored result: an item's id, a follow-up's id, or the registered namespace's name. */
  id: string;
  /** The item a follow-up is about. */
  feedbackId?: string;
  namespace?: string;
  /** The price paid, in the asset's base units (as the offer's `amount`). */
  amount: string;
};

/** The delivery a receipt names, from the stored result and the answer given for it. */
export function deliveredOf(
  delivery: { operation: string; resultId: string; body: unknown },
  amount: string,
): Delivered {
  const answer = (delivery.body ?? {}) as { namespace?: unknown; feedbackId?: unknown };
  return {
    operation: delivery.operation,
    id: delivery.resultId,
    ...(typeof answer.feedbackId === "string" ? { feedbackId: answer.feedbackId } : {}),
    ...(typeof answer.namespace === "string" ? { namespace: answer.namespace } : {}),
    amount,
  };
}

/**
 * The receipt of a delivered paid call: the extension's fields (the transaction included, which the answer
 * names anyway) and what was delivered. `issuedAt` is when the payment was claimed, so the same credential
 * sent again gets the very same receipt (ES256K signing is deterministic, RFC 6979).
 */
export async function signedReceiptExtension(input: {
  resourceUrl: string;
  payer: string;
  network: string;
  transaction: string;
  claimedAt: Date;
  delivered: Delivered;
}) {
  const key = offerReceiptKey();
  if (!key) return undefined;
  const payload = {
    version: VERSION,
    network: input.network,
    resourceUrl: input.resourceUrl,
    payer: input.payer,
    issuedAt: Math.floor(input.claimedAt.getTime() / 1000),
    transaction: input.transaction,
    delivered: input.delivered,
  };
  const receipt = { format: "jws" as const, signature: await createJWS(payload, key.signer) };
  return { [OFFER_RECEIPT]: { info: { version: VERSION, receipt } } };
}

/** This origin's DID document: the key that signs offers and receipts; null when none is configured. */
export function didDocument() {
  const key = offerReceiptKey();
  if (!key) return null;
  return {
    "@context": ["https://www.w3.org/ns/did/v1", "https://w3id.org/security/suites/jws-2020/v1"],
    id: key.did,
    verificationMethod: [
      { id: key.signer.kid, type: "JsonWebKey2020", controller: key.did, publicKeyJwk: key.publicJwk },
    ],
    assertionMethod: [key.signer.kid],
  };
}
