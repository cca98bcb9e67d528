import "server-only";
import { randomBytes } from "node:crypto";
import { and, eq, gt, isNull, lte, sql } from "drizzle-orm";
import type { DbOrTx } from "@/lib/db/client";
import { param, prepared } from "@/lib/db/prepared";
import { rateLimits, siwxNonces } from "@/lib/db/schema";

export type IssuedNonce = { nonce: string; issuedAt: Date; expiresAt: Date };

// Expired rows are useless (consume refuses them), so a sweep at most once a minute per process is enough.
const CLEANUP_INTERVAL_MS = 60_000;
let lastCleanup = 0;

/** Stores and returns a fresh 128-bit hex nonce (SIWE wants ≥ 8 alphanumeric chars) valid for `ttlSeconds`. */
export async function issueNonce(db: DbOrTx, ttlSeconds: number): Promise<IssuedNonce> {
  if (Date.now() - lastCleanup > CLEANUP_INTERVAL_MS) {
    lastCleanup = Date.now();
    await deleteExpiredNonces(db);
  }
  const nonce = randomBytes(16).toString("hex");
  const issuedAt = new Date();
  const expiresAt = new Date(issuedAt.getTime() + ttlSeconds * 1000);
  await db.insert(siwxNonces).values({ nonce, issuedAt, expiresAt });
  return { nonce, issuedAt, expiresAt };
}

// One round trip each, built once per database handle: these run on every signed request.
const usable = () =>
  and(
    eq(siwxNonces.nonce, param("nonce")),
    isNull(siwxNonces.consumedAt),
    gt(siwxNonces.expiresAt, sql`now()`),
  );
const liveStatement = prepared((db) =>
  db.select({ nonce: siwxNonces.nonce }).from(siwxNonces).where(usable()).limit(1).prepare("siwx_nonce_live"),
);
const spendStatement = prepared((db) =>
  db
    .update(siwxNonces)
    .set({ consumedAt: sql`now()`, consumedBy: param("address") })
    .where(usable())
    .returning({ nonce: siwxNonces.nonce })
    .prepare("siwx_nonce_spend"),
);

/** Whether `nonce` was issued by us and can still be consumed; a cheap read before a chain is asked. */
export async function isNonceLive(db: DbOrTx, nonce: string): Promise<boolean> {
  return (await liveStatement(db).execute({ nonce })).length > 0;
}

/**
 * Marks `nonce` used by `address`; true only for the one caller that flips it, however many race.
 * A single conditional UPDATE … RETURNING: the database settles races between requests and processes.
 */
export async function consumeNonce(db: DbOrTx, nonce: string, address: string): Promise<boolean> {
  return (await spendStatement(db).execute({ nonce, address })).length === 1;
}

/** Deletes nonces past their expiry, used or not; returns how many went. */
export async function deleteExpiredNonces(db: DbOrTx): Promise<number> {
  const rows = await db
    .delete(siwxNonces)
    .where(lte(siwxNonces.expiresAt, sql`now()`))
    .returning({ nonce: siwxNonces.nonce });
  return rows.length;
}

/**
 * Spends `nonce` for `address` and counts the request in the same statement, so a signed request
 * commits once: `always` (the client address's key, or null) is counted whatever happens to the nonce,
 * `ifSpent` (the wallet's key) only when this call spent it, so replaying someone's used proof never
 * eats into that wallet's budget. Keys are written in sorted order (no deadlock between two requests
 * sharing both); `windowStart` is the fixed window's start. Returns whether the nonce was spent and the
 * count under each key written.
 */
export async function spendNonceAndCount(
  db: DbOrTx,
  args: { nonce: string; address: string; always: string | null; ifSpent: string; windowStart: Date },
): Promise<{ spent: boolean; counts: Map<string, number> }> {
  const { nonce, address, always, ifSpent, windowStart } = args;
  const result: unknown = await db.execute(sql`
    with spent as (
      update ${siwxNonces} set consumed_at = now(), consumed_by = ${address}
      where nonce = ${nonce} and consumed_at is null and expires_at > now()
      returning nonce
    ), counted as (
      insert into ${rateLimits} (key, window_start, count)
      select k, ${windowStart.toISOString()}::timestamptz, 1 from (
        select ${always}::text as k where ${always}::text is not null
        union all
        select ${ifSpent}::text from spent
      ) as keys
      order by k
      on conflict (key, window_start) do update set count = ${rateLimits}.count + 1
      returning key, count
    )
    select (select count(*) from spent)::int as spent,
      (select coalesce(json_agg(json_build_object('key', key, 'count', count)), '[]'::json) from counted) as counts`);
  // postgres.js answers the rows as an array, PGlite as `{ rows }`.
  type Row = { spent: number; counts: { key: string; count: number }[] | string };
  const [row] = (Array.isArray(result) ? result : (result as { rows: Row[] }).rows) as Row[];
  const counts = typeof row?.counts === "string" ? JSON.parse(row.counts) : (row?.counts ?? []);
  return {
    spent: row?.spent === 1,
    counts: new Map((counts as { key: string; count: number }[]).map((c) => [c.key, c.count])),
  };
}
