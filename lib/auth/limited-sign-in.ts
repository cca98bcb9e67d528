import "server-only";
import { env } from "@/lib/env";
import { clientAddress, enforceLimit } from "@/lib/http/rate-limit";
import type { Identity } from "@/lib/schemas/session";
import { requireSignIn } from "./siwx";

/**
 * Sign-in for a free endpoint, rate limited per client address before the proof is checked (a 402
 * challenge stores a nonce) and per wallet after it.
 */
export async function limitedSignIn(request: Request): Promise<Identity> {
  const e = env();
  const address = clientAddress(request);
  if (address) await enforceLimit(`ip:${address}`, e.RATE_LIMIT_ADDRESS_PER_MINUTE, "address");
  const wallet = await requireSignIn(request);
  await enforceLimit(`wallet:${wallet.address.toLowerCase()}`, e.RATE_LIMIT_WALLET_PER_MINUTE, "wallet");
  return wallet;
}
