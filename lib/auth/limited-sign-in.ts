import "server-only";
import { env } from "@/lib/env";
import { markPhase } from "@/lib/http/handler";
import {
  clientAddress,
  enforceLimits,
  type Limit,
  refuseKnownOver,
  refuseOver,
  WINDOW_MS,
  windowStartOf,
} from "@/lib/http/rate-limit";
import type { Identity } from "@/lib/schemas/session";
import { spendNonceAndCount } from "./nonces";
import { authenticationRequired, type SpendNonce, signInOf } from "./siwx";

/**
 * Sign-in for a free endpoint, rate limited per client address and per wallet: a signed-in request counts
 * both in one statement, a challenge or a refused proof counts the address alone, and an address already over
 * its limit is refused before any proof is checked. Ends the request's "auth" phase (Server-Timing).
 */
export async function limitedSignIn(request: Request): Promise<Identity> {
  return limitedSignedRead(request, async (identity) => identity);
}

/**
 * A free read for the signed-in caller: `read` starts as soon as the proof's signature holds, beside the
 * statement spending its nonce, so it waits one round trip, not two. Its result is answered only once the
 * nonce is spent and the caller is within limits, else dropped; so `read` must not write.
 */
export async function limitedSignedRead<T>(
  request: Request,
  read: (identity: Identity) => Promise<T>,
): Promise<T> {
  let reading: Promise<T> | undefined;
  let identity: Identity;
  try {
    identity = await signInWithinLimits(request, (signer) => {
      reading = read(signer);
      // A refused sign-in drops the read: its failure must not surface as an unhandled rejection.
      reading.catch(() => undefined);
    });
  } finally {
    markPhase("auth");
  }
  return reading ?? read(identity);
}

async function signInWithinLimits(request: Request, signed: (identity: Identity) => void): Promise<Identity> {
  const e = env();
  const ip = clientAddress(request);
  const address: Limit | null = ip
    ? { key: `ip:${ip}`, limit: e.RATE_LIMIT_ADDRESS_PER_MINUTE, what: "address" }
    : null;
  if (address) refuseKnownOver(address);
  // A proof's nonce is spent and both budgets counted in one statement (one commit): the address always,
  // the wallet only when the nonce was spent. The 429 comes after it, so every counter is counted.
  let counted: (() => void) | undefined;
  const spend: SpendNonce = async (db, nonce, signer) => {
    const wallet: Limit = {
      key: `wallet:${signer.address.toLowerCase()}`,
      limit: e.RATE_LIMIT_WALLET_PER_MINUTE,
      what: "wallet",
    };
    const now = Date.now();
    refuseKnownOver(wallet, now);
    const windowStart = windowStartOf(now);
    const counting = spendNonceAndCount(db, {
      nonce,
      address: signer.address,
      always: address?.key ?? null,
      ifSpent: wallet.key,
      windowStart,
    });
    signed(signer);
    const { spent, counts } = await counting;
    const limits = spent ? [...(address ? [address] : []), wallet] : address ? [address] : [];
    counted = () => refuseOver(limits, counts, now, windowStart.getTime() + WINDOW_MS);
    return spent;
  };
  const identity = await signInOf(request, spend).catch(async (error: unknown) => {
    // A proof refused before its nonce was reached (malformed, bad signature) counts its address here;
    // one refused at the nonce was counted with it.
    if (counted) counted();
    else if (address) await enforceLimits([address]);
    throw error;
  });
  if (!identity) {
    // Counted before the challenge's nonce is stored.
    if (address) await enforceLimits([address]);
    throw await authenticationRequired(request.url);
  }
  // A session cookie spends no nonce: its budgets are counted here, in one statement.
  if (counted) counted();
  else {
    const wallet = { key: `wallet:${identity.address.toLowerCase()}`, limit: e.RATE_LIMIT_WALLET_PER_MINUTE };
    await enforceLimits([...(address ? [address] : []), { ...wallet, what: "wallet" }]);
  }
  return identity;
}
