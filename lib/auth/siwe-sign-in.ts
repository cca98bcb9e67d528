import "server-only";
import { SiweMessage } from "siwe";
import { getAddress, hashMessage, isHex } from "viem";
import { recoversTo } from "@/lib/chain/ecdsa";
import { getDb } from "@/lib/db/client";
import { env } from "@/lib/env";
import { AppError } from "@/lib/http/errors";
import type { Identity } from "@/lib/schemas/session";
import { signInNetworkOf, signInNetworks } from "./chains";
import { consumeNonce, isNonceLive, issueNonce } from "./nonces";
import { verifyOnChain } from "./wallet-signature";

/** What the browser needs to build the SIWE (EIP-4361) message it asks the wallet to sign. */
export type SignInChallenge = {
  domain: string;
  uri: string;
  version: "1";
  chainId: number;
  statement: string;
  nonce: string;
  issuedAt: string;
  expirationTime: string;
};

const STATEMENT = "Sign in to the feedback dashboard.";
// Clocks differ a little between the browser, the wallet and us.
const CLOCK_SKEW_MS = 60_000;

const invalid = (detail: string) => new AppError("sign-in-invalid", detail);
const chainIdOf = (network: string) => Number(network.split(":")[1]);

/** Issues a single-use nonce and the fields a sign-in message must carry to be accepted. */
export async function issueSignInChallenge(): Promise<SignInChallenge> {
  const e = env();
  const { nonce, issuedAt, expiresAt } = await issueNonce(await getDb(), e.SIWX_TTL_SECONDS);
  return {
    domain: new URL(e.PUBLIC_ORIGIN).host,
    uri: e.PUBLIC_ORIGIN,
    version: "1",
    chainId: chainIdOf(e.X402_NETWORK),
    statement: STATEMENT,
    nonce,
    issuedAt: issuedAt.toISOString(),
    expirationTime: expiresAt.toISOString(),
  };
}

function parse(message: string): SiweMessage {
  try {
    return new SiweMessage(message);
  } catch {
    throw invalid("The message is not a Sign-In with Ethereum (EIP-4361) message.");
  }
}

function checkFields(siwe: SiweMessage): void {
  const e = env();
  const now = Date.now();
  if (siwe.domain !== new URL(e.PUBLIC_ORIGIN).host) {
    throw invalid(`The message is for ${siwe.domain}, not for this site; sign in from ${e.PUBLIC_ORIGIN}.`);
  }
  let uriOrigin = "";
  try {
    uriOrigin = new URL(siwe.uri).origin;
  } catch {}
  if (uriOrigin !== e.PUBLIC_ORIGIN) throw invalid(`The message's URI must be on ${e.PUBLIC_ORIGIN}.`);
  if (siwe.version !== "1") throw invalid("Only version 1 of Sign-In with Ethereum is accepted.");
  if (!signInNetworkOf(siwe.chainId)) {
    const chains = signInNetworks().map(chainIdOf).join(" or ");
    throw invalid(`Sign in on chain ${chains}; the message names chain ${siwe.chainId}.`);
  }
  const issuedAt = Date.parse(siwe.issuedAt ?? "");
  const expiresAt = Date.parse(siwe.expirationTime ?? "");
  if (!Number.isFinite(issuedAt) || issuedAt > now + CLOCK_SKEW_MS) {
    throw invalid("The message's issuedAt is missing or in the future.");
  }
  if (!Number.isFinite(expiresAt) || expiresAt <= now) {
    throw invalid("The sign-in message has expired; start the sign-in again.");
  }
  if (expiresAt - issuedAt > e.SIWX_TTL_SECONDS * 1000 + CLOCK_SKEW_MS) {
    throw invalid(`A sign-in message may be valid for at most ${e.SIWX_TTL_SECONDS} seconds.`);
  }
  if (siwe.notBefore && Date.parse(siwe.notBefore) > now + CLOCK_SKEW_MS) {
    throw invalid("The sign-in message is not valid yet.");
  }
}

const NONCE_UNUSABLE =
  "The nonce was not issued by this server, has expired, or was already used; start the sign-in again.";

/**
 * Checks a signed SIWE message: bound to our origin and to a sign-in chain, fresh, signed by its address (a
 * plain wallet by ECDSA recovery here, a smart wallet on its chain), with a nonce we issued; spends the nonce
 * last, so a bad try burns nothing.
 */
export async function verifySignInMessage(message: string, signature: string): Promise<Identity> {
  const siwe = parse(message);
  checkFields(siwe);
  if (!isHex(signature) || signature.length < 132) throw invalid("The signature is not a hex signature.");
  const db = await getDb();
  const address = getAddress(siwe.address);
  const network = signInNetworkOf(siwe.chainId)!;
  const hash = hashMessage(message);
  const plain = recoversTo(address, hash, signature);
  if (!plain) {
    // A chain is asked only about a nonce we issued.
    if (!(await isNonceLive(db, siwe.nonce))) throw invalid(NONCE_UNUSABLE);
    const valid = await verifyOnChain(network, { address, hash, signature }).catch(() => false);
    if (!valid) throw invalid("The signature does not match the wallet address and the message.");
  }
  if (!(await consumeNonce(db, siwe.nonce, address))) throw invalid(NONCE_UNUSABLE);
  return {
    address,
    chainId: network,
    did: `did:pkh:${network}:${address}`,
    contractOn: plain ? null : network,
  };
}
