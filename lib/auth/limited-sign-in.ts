import "server-only";
import { env } from "@/lib/env";
import { markPhase } from "@/lib/http/handler";
import { clientAddress, enforceLimits, type Limit, refuseKnownOver } from "@/lib/http/rate-limit";
import type { Identity } from "@/lib/schemas/session";
import { authenticationRequired, signInOf } from "./siwx";

/**
 * Sign-in for a free endpoint, rate limited per client address and per wallet. A signed-in request
 * counts both in one statement, once the wallet is known; a request that ends in a challenge (which
 * stores a nonce) or a refused proof counts its address alone. An address already seen over its
 * limit is refused before any proof is checked. Ends the request's "auth" phase (Server-Timing).
 */
export async function limitedSignIn(request: Request): Promise<Identity> {
  try {
    return await signInWithinLimits(request);
  } finally {
    markPhase("auth");
  }
}

async function signInWithinLimits(request: Request): Promise<Identity> {
  const e = env();
  const ip = clientAddress(request);
  const address: Limit[] = ip
    ? [{ key: `ip:${ip}`, limit: e.RATE_LIMIT_ADDRESS_PER_MINUTE, what: "address" }]
    : [];
  for (const limit of address) refuseKnownOver(limit);
  const identity = await signInOf(request).catch(async (error: unknown) => {
    if (address.length > 0) await enforceLimits(address);
    throw error;
  });
  if (!identity) {
    // Counted before the challenge's nonce is stored.
    if (address.length > 0) await enforceLimits(address);
    throw await authenticationRequired(request.url);
  }
  const wallet = { key: `wallet:${identity.address.toLowerCase()}`, limit: e.RATE_LIMIT_WALLET_PER_MINUTE };
  await enforceLimits([...address, { ...wallet, what: "wallet" }]);
  return identity;
}
