import "server-only";
import { cache } from "react";
import { env } from "@/lib/env";
import { clientAddress, enforceLimit } from "@/lib/http/rate-limit";
import type { SignInInput } from "@/lib/schemas/session";
import {
  assertSameOrigin,
  clearedSessionCookie,
  openSession,
  revokeSession,
  sessionOfCookies,
} from "./session";
import { issueSignInChallenge, verifySignInMessage } from "./siwe-sign-in";

/** A session as the browser sees it. */
export type SessionView = {
  address: `0x${string}`;
  chainId: string;
  /** Set when a contract wallet signed in: it is an identity on that chain only. */
  contractOn: string | null;
  expiresAt: string;
};

/**
 * The session a Cookie header names, as the browser sees it; null when signed out. Cached per server
 * render, so the layout and the page look it up once.
 */
export const currentSession = cache(async (cookieHeader: string | null): Promise<SessionView | null> => {
  const session = await sessionOfCookies(cookieHeader);
  return session
    ? {
        address: session.address,
        chainId: session.chainId,
        contractOn: session.contractOn,
        expiresAt: session.expiresAt.toISOString(),
      }
    : null;
});

// Every challenge stores a nonce and every sign-in checks a signature: both are limited per client
// address, like the 402 challenges of the API.
async function limitAddress(request: Request): Promise<void> {
  const address = clientAddress(request);
  if (address) await enforceLimit(`ip:${address}`, env().RATE_LIMIT_ADDRESS_PER_MINUTE, "address");
}

/** A sign-in challenge (single-use nonce) for a browser. */
export async function signInChallenge(request: Request) {
  await limitAddress(request);
  return issueSignInChallenge();
}

/** Signs a browser in: checks the SIWE proof, replaces any session it had, and opens a new one. */
export async function signIn(request: Request, input: SignInInput) {
  // Login CSRF: another site must not be able to sign this browser in as someone else.
  assertSameOrigin(request);
  await limitAddress(request);
  const identity = await verifySignInMessage(input.message, input.signature);
  await revokeSession(request);
  const { setCookie, expiresAt } = await openSession(identity);
  const session: SessionView = {
    address: identity.address,
    chainId: identity.chainId,
    contractOn: identity.contractOn,
    expiresAt: expiresAt.toISOString(),
  };
  return { session, setCookie };
}

/** Signs a browser out: the session is revoked on the server, not only forgotten by the cookie. */
export async function signOut(request: Request) {
  assertSameOrigin(request);
  await revokeSession(request);
  return { setCookie: clearedSessionCookie() };
}
