import "server-only";
import { encodePaymentRequiredHeader } from "@x402/core/http";
import type { PaymentRequired } from "@x402/core/types";
import {
  declareSIWxExtension,
  parseSIWxHeader,
  SIGN_IN_WITH_X,
  type SIWxExtension,
  type SIWxPayload,
  validateSIWxMessage,
} from "@x402/extensions/sign-in-with-x";
import { getAddress, hashMessage, isAddress } from "viem";
import { recoversTo } from "@/lib/chain/ecdsa";
import { type Db, getAsyncCommitDb } from "@/lib/db/client";
import { env } from "@/lib/env";
import { docsLinks } from "@/lib/http/docs";
import { AppError } from "@/lib/http/errors";
import type { Identity } from "@/lib/schemas/session";
import { signInNetworkOf, signInNetworks } from "./chains";
import { consumeNonce, isNonceLive, issueNonce } from "./nonces";
import { sessionOf } from "./session";
import { siweMessage } from "./siwe-message";
import { verifyOnChain } from "./wallet-signature";

/** The request header carrying the base64 JSON sign-in proof. */
export const SIWX_HEADER = "SIGN-IN-WITH-X";

const DEFAULT_STATEMENT = "Sign in to the feedback service.";

function invalid(detail: string): AppError {
  return new AppError("sign-in-invalid", detail);
}

// The same rebasing the library's own server extension does: the proof binds to our public origin, never to Host.
function onPublicOrigin(resourceUrl: string): string {
  const origin = env().PUBLIC_ORIGIN;
  const resource = new URL(resourceUrl, origin);
  const rebased = new URL(origin);
  rebased.pathname = resource.pathname;
  rebased.search = resource.search;
  return rebased.toString();
}

/** A 402 whose PAYMENT-REQUIRED header and body carry a fresh sign-in-with-x challenge for `resourceUrl`. */
export async function authenticationRequired(
  resourceUrl: string,
  statement = DEFAULT_STATEMENT,
): Promise<AppError> {
  const e = env();
  const uri = onPublicOrigin(resourceUrl);
  const { nonce, issuedAt, expiresAt } = await issueNonce(await getAsyncCommitDb(), e.SIWX_TTL_SECONDS);
  // Every chain a payer may have paid on: x402's, and Tempo's for MPP. Clients sign for the first one
  // their wallet type matches, and a plain wallet is the same submitter on both.
  const declared = declareSIWxExtension({
    network: signInNetworks(),
    statement,
    expirationSeconds: e.SIWX_TTL_SECONDS,
  })[SIGN_IN_WITH_X]!;
  // Fields filled exactly as the library's enrichPaymentRequiredResponse does, but with our stored nonce.
  const declaration: SIWxExtension = {
    info: {
      ...declared.info,
      domain: new URL(e.PUBLIC_ORIGIN).host,
      uri,
      nonce,
      issuedAt: issuedAt.toISOString(),
      expirationTime: expiresAt.toISOString(),
      resources: [uri],
    },
    supportedChains: declared.supportedChains,
    schema: declared.schema,
  };
  const extensions = { [SIGN_IN_WITH_X]: declaration };
  const paymentRequired: PaymentRequired = {
    x402Version: 2,
    error: "Authentication Required",
    resource: { url: uri, description: "Authentication Required", mimeType: "application/json" },
    accepts: [],
    extensions,
  };
  return new AppError(
    "authentication-required",
    `Authentication Required: sign the "${SIGN_IN_WITH_X}" challenge with your wallet and retry with the proof in the ${SIWX_HEADER} header.`,
    {
      headers: { "PAYMENT-REQUIRED": encodePaymentRequiredHeader(paymentRequired) },
      body: { extensions, docs: docsLinks() },
    },
  );
}

function parse(header: string): SIWxPayload {
  try {
    return parseSIWxHeader(header.trim());
  } catch (error) {
    // The library's messages name the failing field, never the header's content.
    throw invalid(error instanceof Error ? error.message : "The SIGN-IN-WITH-X header is not base64 JSON.");
  }
}

const NONCE_UNUSABLE =
  "The nonce was not issued by this server, has expired, or was already used; request a new challenge.";

/** The EIP-4361 text a proof's fields stand for, once they pass the field rules; a refusal names the rule. */
async function signedText(payload: SIWxPayload, chainId: number): Promise<string> {
  const e = env();
  // The library's own field rules (domain and uri on our origin, issued-at age, expiry, not-before); the
  // nonce is checked by spending it, once the signature holds.
  const validation = await validateSIWxMessage(payload, new URL(e.PUBLIC_ORIGIN), {
    maxAge: e.SIWX_TTL_SECONDS * 1000,
  });
  if (!validation.isValid) throw invalid(validation.invalidMessage);
  const message = siweMessage({ ...payload, chainId });
  if (message === null) throw invalid("The signed fields do not form a valid SIWE (EIP-4361) message.");
  return message;
}

/**
 * Verifies a SIGN-IN-WITH-X header and spends its nonce, or throws `sign-in-invalid` with the reason. Only a
 * contract wallet reaches its chain, and only with a nonce we issued; the nonce is spent last, so a bad
 * signature cannot burn someone's nonce.
 */
export async function verifySignIn(
  header: string,
  spend: (db: Db, nonce: string, signer: Identity) => Promise<boolean> = (db, nonce, signer) =>
    consumeNonce(db, nonce, signer.address),
): Promise<Identity> {
  const payload = parse(header);
  const network = signInNetworkOf(payload.chainId);
  if (!network || payload.type !== "eip191") {
    throw invalid(`Sign in on ${signInNetworks().join(" or ")} with an eip191 (EVM) signature.`);
  }
  if (!isAddress(payload.address, { strict: false })) throw invalid("The address is not an EVM address.");
  if (!payload.expirationTime)
    throw invalid("The proof has no expirationTime; sign the challenge as issued.");

  const hash = hashMessage(await signedText(payload, Number(network.slice("eip155:".length))));
  const address = getAddress(payload.address);
  const db = await getAsyncCommitDb();
  // A plain key recovers here; a contract wallet vouches on its chain, and is an identity there only.
  const plain = recoversTo(address, hash, payload.signature);
  if (!plain) {
    if (!(await isNonceLive(db, payload.nonce))) throw invalid(NONCE_UNUSABLE);
    const valid = await verifyOnChain(network, { address, hash, signature: payload.signature }).catch(() => {
      throw invalid("The signature could not be verified.");
    });
    if (!valid) throw invalid("The signature does not match the address and message.");
  }
  const identity: Identity = {
    address,
    chainId: network,
    did: `did:pkh:${network}:${address}`,
    contractOn: plain ? null : network,
  };
  if (!(await spend(db, payload.nonce, identity))) throw invalid(NONCE_UNUSABLE);
  return identity;
}

/**
 * How a signed request's nonce is spent, once the signature holds: by default alone; a rate-limited route
 * counts in the same statement, and a read may start beside it.
 */
export type SpendNonce = NonNullable<Parameters<typeof verifySignIn>[1]>;

/** The caller's identity from a SIGN-IN-WITH-X proof or, without one, the browser's session cookie; else null. */
export async function signInOf(request: Request, spend?: SpendNonce): Promise<Identity | null> {
  const header = request.headers.get(SIWX_HEADER);
  if (header) return verifySignIn(header, spend);
  const session = await sessionOf(request);
  return session
    ? { address: session.address, chainId: session.chainId, did: session.did, contractOn: session.contractOn }
    : null;
}

/**
 * The caller's identity from a SIGN-IN-WITH-X proof or, without one, from the browser's session cookie;
 * throws the 402 challenge when the request carries neither.
 */
export async function requireSignIn(request: Request): Promise<Identity> {
  const identity = await signInOf(request);
  if (identity) return identity;
  throw await authenticationRequired(request.url);
}

/** The caller's identity, or null without a proof; an invalid proof still throws. */
export async function optionalSignIn(request: Request): Promise<Identity | null> {
  const header = request.headers.get(SIWX_HEADER);
  return header ? verifySignIn(header) : null;
}
