import { eq } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { openDb } from "@/lib/db/client";
import { siwxNonces } from "@/lib/db/schema";
import { consumeNonce, isNonceLive, issueNonce } from "./nonces";

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
