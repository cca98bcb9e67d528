import "server-only";
import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import { sql } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { signerLeases } from "@/lib/db/schema";
import { env } from "@/lib/env";

/** How long a lease lasts, and how much of it must be left for a signer to start a settlement. */
const LEASE_SECONDS = 60;
const RENEW_WHEN_LEFT_MS = 40_000;

// Kept on globalThis: a module reloaded in development must not become a stranger to its own leases.
const state = globalThis as unknown as {
  __signerLeases?: { holder?: string; held: Map<string, number> };
};
state.__signerLeases ??= { held: new Map() };
const { held } = state.__signerLeases;

/**
 * Who holds leases: INSTANCE_ID when the deployment gives each instance a stable name (a restarted
 * instance then takes its own leases back at once), or a name unique to this process.
 */
function holderId(): string {
  const leases = state.__signerLeases!;
  leases.holder ??= env().INSTANCE_ID ?? `${hostname()}:${process.pid}:${randomBytes(4).toString("hex")}`;
  return leases.holder;
}

/**
 * Takes or renews this process's lease on a signing key, in the shared database: "kept" while it held
 * it all along, "taken" when it was not holding it just before (its nonces must then be read again
 * from the chain), null when another instance holds it. A lease is taken only when it is free or
 * lapsed, so two instances never sign with one key at once. The local deadline is counted from before
 * the database was asked: it ends early, never late.
 */
export async function holdLease(address: string): Promise<"kept" | "taken" | null> {
  const key = address.toLowerCase();
  const until = held.get(key);
  if (until !== undefined && until - Date.now() > RENEW_WHEN_LEFT_MS) return "kept";
  const continuous = until !== undefined && until > Date.now();
  const asked = Date.now();
  const holder = holderId();
  const expiresAt = sql`now() + ${sql.raw(`interval '${LEASE_SECONDS} seconds'`)}`;
  const rows = await (await getDb())
    .insert(signerLeases)
    .values({ address: key, holder, expiresAt })
    .onConflictDoUpdate({
      target: signerLeases.address,
      set: { holder, expiresAt },
      setWhere: sql`${signerLeases.holder} = ${holder} or ${signerLeases.expiresAt} < now()`,
    })
    .returning({ holder: signerLeases.holder });
  if (rows.length === 1) {
    held.set(key, asked + LEASE_SECONDS * 1000);
    return continuous ? "kept" : "taken";
  }
  held.delete(key);
  return null;
}

/** The first of `addresses` this process holds or can take, preferring one it already holds; null if none. */
export async function leaseOneOf(
  addresses: readonly string[],
): Promise<{ address: string; taken: boolean } | null> {
  const mine = (a: string) => Number(held.has(a.toLowerCase()));
  for (const address of [...addresses].sort((a, b) => mine(b) - mine(a))) {
    const lease = await holdLease(address);
    if (lease) return { address, taken: lease === "taken" };
  }
  return null;
}
