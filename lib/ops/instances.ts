import "server-only";
import { createHmac, randomBytes } from "node:crypto";
import { hostname } from "node:os";
import { eq, gt, lt } from "drizzle-orm";
import { type DbOrTx, getDb } from "@/lib/db/client";
import { instances } from "@/lib/db/schema";
import { env, type ServerEnv } from "@/lib/env";
import { describeError } from "@/lib/http/log";

/** The secrets every instance on one database must share, and what breaks when one differs. */
export const SHARED_SECRETS = {
  MPP_SECRET_KEY:
    "an MPP challenge one instance issues is refused by another (402 invalid-challenge) whenever a payment's retry reaches a different instance",
  APP_SECRET: "a list cursor or a dashboard session one instance signs is refused by another",
  OFFER_RECEIPT_PRIVATE_KEY:
    "an x402 offer or receipt one instance signs does not verify against the key another publishes at /.well-known/did.json",
} as const;
type SharedSecret = keyof typeof SHARED_SECRETS;

const HEARTBEAT_MS = 60_000;
/** An instance not seen for this long has stopped (its heartbeat runs every minute). */
export const LIVE_MS = 3 * HEARTBEAT_MS;
/** Rows of instances gone this long are deleted. */
const FORGET_MS = 86_400_000;

/** An HMAC of a fixed text under each shared secret: equal for equal secrets, and revealing neither. */
export function secretDigests(e: ServerEnv): Record<SharedSecret, string> {
  const digest = (secret: string) =>
    createHmac("sha256", secret).update("feedback-service shared secret v1").digest("hex").slice(0, 32);
  return {
    MPP_SECRET_KEY: digest(e.MPP_SECRET_KEY),
    APP_SECRET: digest(e.APP_SECRET),
    OFFER_RECEIPT_PRIVATE_KEY: e.OFFER_RECEIPT_PRIVATE_KEY ? digest(e.OFFER_RECEIPT_PRIVATE_KEY) : "unset",
  };
}

export type LiveInstance = { role: string; host: string; pid: number; secrets: Record<string, string> };

/** Each shared secret that differs from `digests` in some live instance, with those instances. */
export function secretMismatches(digests: Record<SharedSecret, string>, live: LiveInstance[]) {
  return (Object.keys(SHARED_SECRETS) as SharedSecret[]).flatMap((variable) => {
    // An instance of a version that did not record this secret is not known to differ.
    const others = live.filter((i) => variable in i.secrets && i.secrets[variable] !== digests[variable]);
    return others.length ? [{ variable, others }] : [];
  });
}

/**
 * The shared secrets of this process that differ from an instance seen live on the database (another process
 * than this one), by variable: what readiness reports.
 */
export async function secretsDifferingFromLive(db: DbOrTx, e: ServerEnv): Promise<SharedSecret[]> {
  const since = new Date(Date.now() - LIVE_MS);
  const live = (await db.select().from(instances).where(gt(instances.seenAt, since))).filter(
    (i) => !(i.host === hostname() && i.pid === process.pid),
  );
  return secretMismatches(secretDigests(e), live).map((m) => m.variable);
}

/** "web on host-a (pid 12), worker on host-b (pid 7)". */
export const describeInstances = (list: LiveInstance[]) =>
  list.map((i) => `${i.role} on ${i.host} (pid ${i.pid})`).join(", ");

/**
 * Records this process among the instances of its database, says on stderr which shared secret differs from
 * a live instance's (naming the variable: the service keeps running, as during a rolling change of the
 * secret), and keeps its row fresh every minute. Never fails a start: it only informs. Answers how to leave:
 * a graceful stop removes its row, so no check counts a process that has exited as live.
 */
export async function announceInstance(role: "web" | "worker"): Promise<() => Promise<void>> {
  try {
    const db = await getDb();
    const id = `${hostname()}:${process.pid}:${randomBytes(4).toString("hex")}`;
    const digests = secretDigests(env());
    const now = new Date();
    const live = await db.select().from(instances);
    await db.insert(instances).values({
      id,
      role,
      host: hostname(),
      pid: process.pid,
      startedAt: now,
      seenAt: now,
      secrets: digests,
    });
    const recent = live.filter((i) => now.getTime() - i.seenAt.getTime() < LIVE_MS);
    for (const { variable, others } of secretMismatches(digests, recent)) {
      console.error(
        `[startup] ${variable} differs from the one ${others.length} running instance(s) use (${describeInstances(others)}): ${SHARED_SECRETS[variable]}. Give every instance the same ${variable}.`,
      );
    }
    const timer = setInterval(() => {
      const at = new Date();
      Promise.all([
        db.update(instances).set({ seenAt: at }).where(eq(instances.id, id)),
        db.delete(instances).where(lt(instances.seenAt, new Date(at.getTime() - FORGET_MS))),
      ]).catch((error: unknown) => console.error(`[instances] heartbeat failed: ${describeError(error)}`));
    }, HEARTBEAT_MS);
    timer.unref();
    return async () => {
      clearInterval(timer);
      await db.delete(instances).where(eq(instances.id, id));
    };
  } catch (error) {
    console.error(`[startup] could not record this instance: ${describeError(error)}`);
    return async () => {};
  }
}
