import "server-only";
import { createHash } from "node:crypto";
import { openLockSession } from "@/lib/db/client";
import type { LockSession } from "@/lib/db/lock-session";
import { env } from "@/lib/env";
import { describeError } from "@/lib/http/log";
import { SettlementUnavailable } from "./types";

/**
 * A key whose transactions use sequential nonces signs in one process at a time: the process that holds
 * its session-level advisory lock, on a database session of its own. The lock ends with that session,
 * which ends with the process, so a crashed instance's keys are free at once, with nothing to configure.
 */
type Locks = { session: LockSession; held: Set<string>; taking: Map<string, Promise<boolean>> };

// Kept on globalThis: a module reloaded in development must not open a second session beside its own.
const state = globalThis as unknown as { __signerLocks?: Promise<Locks> };

/** This process's lock session; a new one (holding nothing yet) once the last one has ended. */
async function current(): Promise<Locks> {
  for (;;) {
    state.__signerLocks ??= openLockSession().then((session) => ({
      session,
      held: new Set<string>(),
      taking: new Map<string, Promise<boolean>>(),
    }));
    const pending = state.__signerLocks;
    const locks = await pending.catch((error: unknown) => {
      if (state.__signerLocks === pending) state.__signerLocks = undefined;
      throw error;
    });
    if (!locks.session.closed) return locks;
    if (state.__signerLocks === pending) state.__signerLocks = undefined;
  }
}

/** The advisory lock of a signing key: 64 bits of a hash of its address, in a namespace of its own. */
function lockKey(address: string): bigint {
  return createHash("sha256").update(`signer-lease:${address}`).digest().readBigInt64BE(0);
}

/**
 * Takes this process's lock on a signing key: "kept" if held all along, "taken" if not held just before (its
 * nonces must be read again from the chain), null while another process holds it or the database cannot be
 * asked. It is this process's own view; `assertLeaseHeld` asks the database right before the key signs.
 */
export async function holdLease(address: string): Promise<"kept" | "taken" | null> {
  const key = address.toLowerCase();
  try {
    const locks = await current();
    if (locks.held.has(key)) return "kept";
    let taking = locks.taking.get(key);
    if (!taking) {
      taking = locks.session.tryLock(lockKey(key)).finally(() => locks.taking.delete(key));
      locks.taking.set(key, taking);
    }
    if (!(await taking) || locks.session.closed) return null;
    locks.held.add(key);
    return "taken";
  } catch (error) {
    console.error(`[signer-lease] the lock session failed: ${describeError(error)}`);
    return null;
  }
}

/** The first of `addresses` this process holds or can take, preferring one it already holds; null if none. */
export async function leaseOneOf(
  addresses: readonly string[],
): Promise<{ address: string; taken: boolean } | null> {
  const locks = await current().catch(() => undefined);
  const mine = (a: string) => Number(locks?.held.has(a.toLowerCase()) ?? false);
  for (const address of [...addresses].sort((a, b) => mine(b) - mine(a))) {
    const lease = await holdLease(address);
    if (lease) return { address, taken: lease === "taken" };
  }
  return null;
}

/**
 * Right before a key signs: throws SettlementUnavailable (nothing sent) unless this process holds its
 * lock and the database confirms the session that holds it is still there. A session found gone is
 * given up, so the next holdLease takes the key anew ("taken") and its nonces are read again.
 */
export async function assertLeaseHeld(address: string): Promise<void> {
  const locks = await current().catch(() => undefined);
  const held = locks?.held.has(address.toLowerCase()) ?? false;
  if (!locks || !held || !(await locks.session.alive(env().X402_TIMEOUT_MS))) {
    throw new SettlementUnavailable(`this instance no longer holds the signing key ${address}`);
  }
}
