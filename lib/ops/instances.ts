import "server-only";
import { createHmac, randomBytes, scrypt } from "node:crypto";
import { hostname } from "node:os";
import { promisify } from "node:util";
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

// A salted, slow digest of each shared secret (scrypt, 32 MB, tens of ms): equal secrets compare equal under
// the same salt, and a reader of the database (a backup) cannot test guesses of a chosen secret at speed, as it
// could against the plain HMAC of a fixed text older versions stored ("v1", still compared, never written).
const SCRYPT = { N: 2 ** 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 } as const;
const scryptAsync = promisify(scrypt) as (
  secret: string,
  salt: Buffer,
  length: number,
  options: typeof SCRYPT,
) => Promise<Buffer>;
const derived = new Map<string, Promise<string>>();

/** `secret`'s digest under `salt` (base64url), computed once per process for each pair. */
function slowDigest(secret: string, salt: string): Promise<string> {
  const key = `${salt}\n${createHmac("sha256", "cache").update(secret).digest("hex")}`;
  let found = derived.get(key);
  if (!found) {
    found = scryptAsync(secret, Buffer.from(salt, "base64url"), 24, SCRYPT).then(
      (hash) => `s2:${salt}:${hash.toString("base64url")}`,
    );
    derived.set(key, found);
  }
  return found;
}

const v1 = (secret: string) =>
  createHmac("sha256", secret).update("feedback-service shared secret v1").digest("hex").slice(0, 32);

type Secrets = Record<SharedSecret, string | undefined>;
const secretsOf = (e: ServerEnv): Secrets => ({
  MPP_SECRET_KEY: e.MPP_SECRET_KEY,
  APP_SECRET: e.APP_SECRET,
  OFFER_RECEIPT_PRIVATE_KEY: e.OFFER_RECEIPT_PRIVATE_KEY,
});

/** What this process records of its shared secrets: a salted slow digest of each (a salt of its own). */
export async function secretDigests(e: ServerEnv): Promise<Record<SharedSecret, string>> {
  const salt = randomBytes(16).toString("base64url");
  const secrets = secretsOf(e);
  const entries = await Promise.all(
    (Object.keys(secrets) as SharedSecret[]).map(
      async (name) => [name, secrets[name] ? await slowDigest(secrets[name], salt) : "unset"] as const,
    ),
  );
  return Object.fromEntries(entries) as Record<SharedSecret, string>;
}

/** Whether `recorded` (another instance's digest of a secret) is the digest of this process's `secret`. */
async function sameSecret(secret: string | undefined, recorded: string): Promise<boolean> {
  if (recorded === "unset" || secret === undefined) return recorded === "unset" && secret === undefined;
  const slow = /^s2:([A-Za-z0-9_-]+):/.exec(recorded);
  if (slow) return (await slowDigest(secret, slow[1]!)) === recorded;
  return v1(secret) === recorded;
}

export type LiveInstance = { role: string; host: string; pid: number; secrets: Record<string, string> };

/** Each shared secret of `e` that differs from what some live instance recorded, with those instances. */
export async function secretMismatches(e: ServerEnv, live: LiveInstance[]) {
  const secrets = secretsOf(e);
  const found = await Promise.all(
    (Object.keys(SHARED_SECRETS) as SharedSecret[]).map(async (variable) => {
      // An instance of a version that did not record this secret is not known to differ.
      const others: LiveInstance[] = [];
      for (const i of live) {
        if (variable in i.secrets && !(await sameSecret(secrets[variable], i.secrets[variable]!)))
          others.push(i);
      }
      return others.length ? [{ variable, others }] : [];
    }),
  );
  return found.flat();
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
  return (await secretMismatches(e, live)).map((m) => m.variable);
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
    const digests = await secretDigests(env());
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
    for (const { variable, others } of await secretMismatches(env(), recent)) {
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
