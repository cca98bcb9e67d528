import "server-only";
import { lt, sql } from "drizzle-orm";
import { type DbOrTx, getDb } from "@/lib/db/client";
import { rateLimits } from "@/lib/db/schema";
import { env } from "@/lib/env";
import { AppError } from "./errors";
import { peerAddress } from "./peer-address";

const WINDOW_MS = 60_000;
// Windows older than this are deleted now and then, by whichever instance happens to count.
const KEEP_MS = 10 * WINDOW_MS;
const CLEANUP_CHANCE = 0.01;

/** Counts one request under `key` in the current fixed window; the count is shared by every instance. */
export async function countRequest(db: DbOrTx, key: string, now = Date.now()) {
  const windowStart = new Date(Math.floor(now / WINDOW_MS) * WINDOW_MS);
  const [row] = await db
    .insert(rateLimits)
    .values({ key, windowStart, count: 1 })
    .onConflictDoUpdate({
      target: [rateLimits.key, rateLimits.windowStart],
      set: { count: sql`${rateLimits.count} + 1` },
    })
    .returning({ count: rateLimits.count });
  if (Math.random() < CLEANUP_CHANCE) await deleteOldWindows(db, now);
  const retryAfter = Math.max(1, Math.ceil((windowStart.getTime() + WINDOW_MS - now) / 1000));
  return { count: row?.count ?? 1, retryAfter };
}

/** Deletes counters of windows that ended long ago; any instance may run it at any time. */
export async function deleteOldWindows(db: DbOrTx, now = Date.now()): Promise<number> {
  const gone = await db
    .delete(rateLimits)
    .where(lt(rateLimits.windowStart, new Date(now - KEEP_MS)))
    .returning({ key: rateLimits.key });
  return gone.length;
}

/** Throws a 429 with Retry-After once `key` went over `limit` requests in this minute. */
export async function enforceLimit(key: string, limit: number, what: string): Promise<void> {
  const { count, retryAfter } = await countRequest(await getDb(), key);
  if (count <= limit) return;
  throw new AppError(
    "rate-limited",
    `Too many requests from this ${what}: at most ${limit} a minute. Retry in ${retryAfter} s.`,
    { headers: { "retry-after": String(retryAfter) }, body: { limit, retryAfter } },
  );
}

/**
 * The client's network address. Behind a proxy (TRUST_PROXY) it is the rightmost X-Forwarded-For
 * entry, the one our own proxy appended. Otherwise it is the socket's address as this process saw it:
 * `next start` keeps an X-Forwarded-For the client wrote itself, so that header is never believed. Null
 * only when the request did not come through this process's HTTP server (in-process tests).
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
