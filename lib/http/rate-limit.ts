import "server-only";
import { lt, sql } from "drizzle-orm";
import { type DbOrTx, getAsyncCommitDb } from "@/lib/db/client";
import { param, prepared } from "@/lib/db/prepared";
import { rateLimits } from "@/lib/db/schema";
import { env } from "@/lib/env";
import { AppError } from "./errors";
import { peerAddress } from "./peer-address";

export const WINDOW_MS = 60_000;
// Windows older than this are deleted now and then, by whichever instance happens to count.
const KEEP_MS = 10 * WINDOW_MS;
const CLEANUP_CHANCE = 0.01;

/** A budget: at most `limit` requests a minute under `key`; `what` names it in the 429 ("address"). */
export type Limit = { key: string; limit: number; what: string };

// One upsert for one key or two (an address and a wallet), built once per database handle.
const countStatements = [1, 2].map((keys) =>
  prepared((db) =>
    db
      .insert(rateLimits)
      .values(
        Array.from({ length: keys }, (_, i) => ({
          key: param(`key${i}`),
          windowStart: param("windowStart"),
          count: 1,
        })),
      )
      .onConflictDoUpdate({
        target: [rateLimits.key, rateLimits.windowStart],
        set: { count: sql`${rateLimits.count} + 1` },
      })
      .returning({ key: rateLimits.key, count: rateLimits.count })
      .prepare(`count_requests_${keys}`),
  ),
);

/**
 * Counts one request under each key (one or two) in the current fixed window, in one statement; the
 * counts are shared by every instance. Keys are written in sorted order, so two requests that share
 * both keys lock their rows in the same order and never deadlock.
 */
export async function countRequests(db: DbOrTx, keys: string[], now = Date.now()) {
  const windowStart = windowStartOf(now);
  const sorted = [...new Set(keys)].sort();
  const statement = countStatements[sorted.length - 1];
  if (!statement) throw new Error(`countRequests counts one or two keys, not ${sorted.length}`);
  const values = Object.fromEntries(sorted.map((key, i) => [`key${i}`, key]));
  const rows = await statement(db).execute({ ...values, windowStart: windowStart.toISOString() });
  if (Math.random() < CLEANUP_CHANCE) await deleteOldWindows(db, now);
  const counts = new Map(rows.map((r) => [r.key, r.count]));
  return {
    counts: keys.map((key) => counts.get(key) ?? 1),
    windowEnd: windowStart.getTime() + WINDOW_MS,
    retryAfter: Math.max(1, Math.ceil((windowStart.getTime() + WINDOW_MS - now) / 1000)),
  };
}

/** The start of the fixed window `now` falls in. */
export function windowStartOf(now: number): Date {
  return new Date(Math.floor(now / WINDOW_MS) * WINDOW_MS);
}

/** Counts one request under `key` in the current fixed window; the count is shared by every instance. */
export async function countRequest(db: DbOrTx, key: string, now = Date.now()) {
  const { counts, retryAfter } = await countRequests(db, [key], now);
  return { count: counts[0]!, retryAfter };
}

/** Deletes counters of windows that ended long ago; any instance may run it at any time. */
export async function deleteOldWindows(db: DbOrTx, now = Date.now()): Promise<number> {
  const gone = await db
    .delete(rateLimits)
    .where(lt(rateLimits.windowStart, new Date(now - KEEP_MS)))
    .returning({ key: rateLimits.key });
  return gone.length;
}

// Within a window a count only grows, so a key seen over its limit stays over until the window ends:
// this instance then refuses it without a round trip, and before any costly check.
const MAX_KNOWN_OVER = 10_000;
const knownOver = new Map<string, { count: number; windowEnd: number }>();

function tooMany({ limit, what }: Limit, now: number, windowEnd: number): AppError {
  const retryAfter = Math.max(1, Math.ceil((windowEnd - now) / 1000));
  return new AppError(
    "rate-limited",
    `Too many requests from this ${what}: at most ${limit} a minute. Retry in ${retryAfter} s.`,
    { headers: { "retry-after": String(retryAfter) }, body: { limit, retryAfter } },
  );
}

/** Throws the 429 when this instance already saw `limit`'s key over it in this window; no database. */
export function refuseKnownOver(limit: Limit, now = Date.now()): void {
  const seen = knownOver.get(limit.key);
  if (!seen) return;
  if (seen.windowEnd <= now) knownOver.delete(limit.key);
  else if (seen.count > limit.limit) throw tooMany(limit, now, seen.windowEnd);
}

/**
 * Counts this request against every limit given (one or two) in one statement, and throws a 429 with
 * Retry-After for the first one it went over; every counter is counted, whichever limit refuses. A key
 * this instance already saw over its limit in this window is refused first, with nothing counted.
 */
export async function enforceLimits(limits: Limit[]): Promise<void> {
  const now = Date.now();
  for (const limit of limits) refuseKnownOver(limit, now);
  const { counts, windowEnd } = await countRequests(
    await getAsyncCommitDb(),
    limits.map((l) => l.key),
    now,
  );
  refuseOver(limits, new Map(limits.map((l, i) => [l.key, counts[i]!])), now, windowEnd);
}

/**
 * Throws the 429 with Retry-After for the first of `limits` whose count (as just written) went over,
 * and remembers every one that did, so this instance refuses it without a round trip until `windowEnd`.
 */
export function refuseOver(limits: Limit[], counts: Map<string, number>, now: number, windowEnd: number) {
  const over = limits.filter((limit) => (counts.get(limit.key) ?? 0) > limit.limit);
  if (over.length === 0) return;
  if (knownOver.size >= MAX_KNOWN_OVER) knownOver.clear();
  for (const limit of over) knownOver.set(limit.key, { count: counts.get(limit.key)!, windowEnd });
  throw tooMany(over[0]!, now, windowEnd);
}

/** Throws a 429 with Retry-After once `key` went over `limit` requests in this minute. */
export async function enforceLimit(key: string, limit: number, what: string): Promise<void> {
  await enforceLimits([{ key, limit, what }]);
}

/**
 * The client's network address: behind a proxy (TRUST_PROXY) the rightmost X-Forwarded-For entry, which our
 * proxy appended; otherwise the socket's, as `next start` keeps an X-Forwarded-For the client wrote itself.
 * Null only outside this process's HTTP server (in-process tests).
 */
export function clientAddress(request: Request): string | null {
  let address: string | null | undefined;
  if (env().TRUST_PROXY) {
    address = (request.headers.get("x-forwarded-for") ?? "")
      .split(",")
      .map((e) => e.trim())
      .filter(Boolean)
      .at(-1);
  } else {
    address = peerAddress(request);
  }
  return address ? addressKey(address.slice(0, 100).toLowerCase()) : null;
}

/**
 * Counts a request to a paid endpoint against its client address, before any credential is read:
 * every bogus credential costs the service work, so each address gets a budget a minute.
 */
export async function enforcePaidAddressLimit(request: Request): Promise<void> {
  const address = clientAddress(request);
  if (address) await enforceLimit(`paid:${address}`, env().RATE_LIMIT_PAID_ADDRESS_PER_MINUTE, "address");
}

/**
 * The unit an address is limited by: an IPv4 address itself, an IPv6 address by its /64 (one
 * subscriber's network, whose 2^64 addresses would otherwise each get their own allowance).
 */
export function addressKey(address: string): string {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/.exec(address);
  if (mapped) return mapped[1]!;
  if (!address.includes(":") || !/^[0-9a-f:]+$/.test(address)) return address;
  const [head = "", tail = ""] = address.split("::");
  const left = head ? head.split(":") : [];
  const right = address.includes("::") && tail ? tail.split(":") : [];
  const groups = address.includes("::")
    ? [...left, ...Array(Math.max(0, 8 - left.length - right.length)).fill("0"), ...right]
    : left;
  if (groups.length !== 8) return address;
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ""))
    .join(":")}::/64`;
}
