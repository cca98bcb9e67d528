import "server-only";
import { randomBytes } from "node:crypto";
import { and, eq, gt, isNull, lte, sql } from "drizzle-orm";
import type { DbOrTx } from "@/lib/db/client";
import { param, prepared, preparedSql } from "@/lib/db/prepared";
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

// Prepared once per connection like the statements above: it runs on every signed request, and sent
// unnamed its three parts were parsed and planned anew each time (about a millisecond of the sign-in).
// One row always comes back: whether the nonce was spent, beside each key counted (none: nulls).
const spendAndCountStatement = preparedSql<{ spent: number; key: string | null; count: number | null }>(
  "siwx_nonce_spend_and_count",
  sql`
    with spent as (
      update ${siwxNonces} set consumed_at = now(), consumed_by = ${param("address")}::text
      where nonce = ${param("nonce")}::text and consumed_at is null and expires_at > now()
      returning nonce
    ), counted as (
      insert into ${rateLimits} (key, window_start, count)
      select k, ${param("windowStart")}::timestamptz, 1 from (
        select ${param("always")}::text as k where ${param("always")}::text is not null
        union all
        select ${param("ifSpent")}::text from spent
      ) as keys
      order by k
      on conflict (key, window_start) do update set count = ${rateLimits}.count + 1
      returning key, count
    )
    select s.spent, c.key, c.count
    from (select count(*)::int as spent from spent) as s left join counted as c on true`,
);

/**
 * Spends `nonce` and counts the request in one statement: `always` (the client address's key) counts whatever
 * happens, `ifSpent` (the wallet's) only when this call spent it, so replaying someone's used proof never
 * eats that wallet's budget. Keys are written sorted, so two requests sharing both cannot deadlock.
 */
export async function spendNonceAndCount(
  db: DbOrTx,
  args: { nonce: string; address: string; always: string | null; ifSpent: string; windowStart: Date },
): Promise<{ spent: boolean; counts: Map<string, number> }> {
  const { nonce, address, always, ifSpent, windowStart } = args;
  const rows = await spendAndCountStatement(db, {
    nonce,
    address,
    always,
    ifSpent,
    windowStart: windowStart.toISOString(),
  });
  const counts = new Map<string, number>();
  for (const row of rows) if (row.key !== null && row.count !== null) counts.set(row.key, Number(row.count));
  return { spent: Number(rows[0]?.spent) === 1, counts };
}
