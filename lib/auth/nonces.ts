import "server-only";
import { randomBytes } from "node:crypto";
import { and, eq, gt, isNull, lte, sql } from "drizzle-orm";
import type { DbOrTx } from "@/lib/db/client";
import { param, prepared } from "@/lib/db/prepared";
import { siwxNonces } from "@/lib/db/schema";

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
