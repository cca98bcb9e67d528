import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Db, openDb } from "@/lib/db/client";
import { siwxNonces } from "@/lib/db/schema";
import { consumeNonce, deleteExpiredNonces, isNonceLive, issueNonce } from "./nonces";

const ALICE = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
let db: Db;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ db, close } = await openDb({ dataDir: "memory://" }));
});
afterAll(() => close());

describe("nonces", () => {
  it("issues distinct alphanumeric nonces of at least 128 bits, stored with their lifetime", async () => {
    const a = await issueNonce(db, 300);
    const b = await issueNonce(db, 300);
    expect(a.nonce).toMatch(/^[0-9a-f]{32,}$/);
    expect(a.nonce).not.toBe(b.nonce);
    expect(a.expiresAt.getTime() - a.issuedAt.getTime()).toBe(300_000);
    const [row] = await db.select().from(siwxNonces).where(eq(siwxNonces.nonce, a.nonce));
    expect(row?.expiresAt.getTime()).toBe(a.expiresAt.getTime());
    expect(row?.consumedAt).toBeNull();
  });

  it("lets exactly one of several concurrent consumers spend a nonce, and records who", async () => {
    const { nonce } = await issueNonce(db, 300);
    const results = await Promise.all(Array.from({ length: 8 }, () => consumeNonce(db, nonce, ALICE)));
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(await consumeNonce(db, nonce, ALICE)).toBe(false);
    expect(await isNonceLive(db, nonce)).toBe(false);
    const [row] = await db.select().from(siwxNonces).where(eq(siwxNonces.nonce, nonce));
    expect(row?.consumedBy).toBe(ALICE);
  });

  it("refuses a nonce it never issued and one past its expiry", async () => {
    expect(await isNonceLive(db, "0123456789abcdef")).toBe(false);
    expect(await consumeNonce(db, "0123456789abcdef", ALICE)).toBe(false);
    const expired = await issueNonce(db, 0);
    expect(await isNonceLive(db, expired.nonce)).toBe(false);
    expect(await consumeNonce(db, expired.nonce, ALICE)).toBe(false);
  });

  it("sweeps only expired nonces", async () => {
    const live = await issueNonce(db, 300);
    const expired = await issueNonce(db, 0);
    expect(await deleteExpiredNonces(db)).toBeGreaterThanOrEqual(1);
    const left = await db.select({ nonce: siwxNonces.nonce }).from(siwxNonces);
    expect(left.map((r) => r.nonce)).toContain(live.nonce);
    expect(left.map((r) => r.nonce)).not.toContain(expired.nonce);
    expect(await consumeNonce(db, live.nonce, ALICE)).toBe(true);
  });
});
