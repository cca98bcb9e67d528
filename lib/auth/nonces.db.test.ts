import { eq, like } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { openDb } from "@/lib/db/client";
import { rateLimits, siwxNonces } from "@/lib/db/schema";
import { consumeNonce, isNonceLive, issueNonce, spendNonceAndCount } from "./nonces";

// Not in a rolled-back transaction: spends must race on separate connections (a pool, with DATABASE_URL).
const handle = openDb({ url: process.env.DATABASE_URL });
afterAll(async () => (await handle).close());
const ALICE = "0x00000000000000000000000000000000000A11CE";
const BOB = "0x0000000000000000000000000000000000000B0B";

describe("spending a sign-in nonce", () => {
  it("lets exactly one of many concurrent spends win, and records who spent it", async () => {
    const { db } = await handle;
    const { nonce } = await issueNonce(db, 60);
    const spenders = Array.from({ length: 12 }, (_, i) => (i % 2 ? BOB : ALICE));
    const results = await Promise.all(spenders.map((address) => consumeNonce(db, nonce, address)));
    expect(results.filter(Boolean)).toHaveLength(1);
    const [row] = await db.select().from(siwxNonces).where(eq(siwxNonces.nonce, nonce));
    expect(row?.consumedBy).toBe(spenders[results.indexOf(true)]);
    expect(row?.consumedAt).toBeInstanceOf(Date);
    expect(await isNonceLive(db, nonce)).toBe(false);
    expect(await consumeNonce(db, nonce, ALICE)).toBe(false);
    await db.delete(siwxNonces).where(eq(siwxNonces.nonce, nonce));
  });

  it("refuses a nonce never issued and one past its expiry, and spends a live one", async () => {
    const { db } = await handle;
    expect(await consumeNonce(db, "0123456789abcdef0123456789abcdef", ALICE)).toBe(false);
    const expired = await issueNonce(db, 0);
    expect(await isNonceLive(db, expired.nonce)).toBe(false);
    expect(await consumeNonce(db, expired.nonce, ALICE)).toBe(false);
    const live = await issueNonce(db, 60);
    expect(await isNonceLive(db, live.nonce)).toBe(true);
    expect(await consumeNonce(db, live.nonce, ALICE)).toBe(true);
    for (const { nonce } of [expired, live]) await db.delete(siwxNonces).where(eq(siwxNonces.nonce, nonce));
  });
});

describe("spending a nonce and counting the request in one statement", () => {
  const windowStart = new Date(Math.floor(Date.now() / 60_000) * 60_000);
  const tag = `t${Date.now()}${Math.random().toString(36).slice(2, 8)}`;

  it("counts the address always and the wallet only for the one spend that wins a race", async () => {
    const { db } = await handle;
    const { nonce } = await issueNonce(db, 60);
    const always = `ip:${tag}`;
    const ifSpent = `wallet:${tag}`;
    const results = await Promise.all(
      Array.from({ length: 8 }, () =>
        spendNonceAndCount(db, { nonce, address: ALICE, always, ifSpent, windowStart }),
      ),
    );
    expect(results.filter((r) => r.spent)).toHaveLength(1);
    // Every call counted the address; the wallet was counted once, by the winner, which saw count 1.
    const addressCounts = results.map((r) => r.counts.get(always)).sort((a, b) => a! - b!);
    expect(addressCounts).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(results.find((r) => r.spent)?.counts.get(ifSpent)).toBe(1);
    expect(results.filter((r) => !r.spent).every((r) => !r.counts.has(ifSpent))).toBe(true);
    const rows = await db
      .select()
      .from(rateLimits)
      .where(like(rateLimits.key, `%:${tag}`));
    expect(Object.fromEntries(rows.map((r) => [r.key, r.count]))).toEqual({ [always]: 8, [ifSpent]: 1 });
    await db.delete(rateLimits).where(like(rateLimits.key, `%:${tag}`));
    await db.delete(siwxNonces).where(eq(siwxNonces.nonce, nonce));
  });

  it("refuses an expired nonce, leaves it unspent, and counts only the address", async () => {
    const { db } = await handle;
    const expired = await issueNonce(db, 0);
    const always = `ip:expired-${tag}`;
    const ifSpent = `wallet:expired-${tag}`;
    const refused = await spendNonceAndCount(db, {
      nonce: expired.nonce,
      address: ALICE,
      always,
      ifSpent,
      windowStart,
    });
    expect(refused).toEqual({ spent: false, counts: new Map([[always, 1]]) });
    const [row] = await db.select().from(siwxNonces).where(eq(siwxNonces.nonce, expired.nonce));
    expect(row?.consumedAt).toBeNull();
    await db.delete(rateLimits).where(like(rateLimits.key, `%:expired-${tag}`));
    await db.delete(siwxNonces).where(eq(siwxNonces.nonce, expired.nonce));
  });

  it("counts nothing for a request without a client address whose nonce is refused", async () => {
    const { db } = await handle;
    const refused = await spendNonceAndCount(db, {
      nonce: "0123456789abcdef0123456789abcdef",
      address: BOB,
      always: null,
      ifSpent: `wallet:none-${tag}`,
      windowStart,
    });
    expect(refused).toEqual({ spent: false, counts: new Map() });
    const live = await issueNonce(db, 60);
    const spent = await spendNonceAndCount(db, {
      nonce: live.nonce,
      address: BOB,
      always: null,
      ifSpent: `wallet:none-${tag}`,
      windowStart,
    });
    expect(spent).toEqual({ spent: true, counts: new Map([[`wallet:none-${tag}`, 1]]) });
    const [row] = await db.select().from(siwxNonces).where(eq(siwxNonces.nonce, live.nonce));
    expect(row?.consumedBy).toBe(BOB);
    await db.delete(rateLimits).where(like(rateLimits.key, `%-${tag}`));
    await db.delete(siwxNonces).where(eq(siwxNonces.nonce, live.nonce));
  });
});
