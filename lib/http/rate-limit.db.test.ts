import { like } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { openDb } from "@/lib/db/client";
import { rateLimits } from "@/lib/db/schema";
import { countRequests } from "./rate-limit";

// Not in a rolled-back transaction: requests sharing keys must race on separate connections (a pool,
// with DATABASE_URL), as they do between instances.
const handle = openDb({ url: process.env.DATABASE_URL });
const run = `rl-test-${Math.random().toString(36).slice(2, 10)}`;
afterAll(async () => {
  const { db, close } = await handle;
  await db.delete(rateLimits).where(like(rateLimits.key, `${run}%`));
  await close();
});

describe("counting an address and a wallet in one statement", () => {
  it("counts both keys and answers each count in the order asked", async () => {
    const { db } = await handle;
    const [ip, wallet] = [`${run}:ip:a`, `${run}:wallet:x`];
    const t = Date.UTC(2026, 0, 1, 12, 0, 30);
    expect(await countRequests(db, [wallet, ip], t)).toEqual({
      counts: [1, 1],
      windowEnd: t + 30_000,
      retryAfter: 30,
    });
    expect((await countRequests(db, [ip, wallet], t + 1_000)).counts).toEqual([2, 2]);
    expect((await countRequests(db, [ip, `${run}:wallet:y`], t + 2_000)).counts).toEqual([3, 1]);
    expect((await countRequests(db, [ip], t + 30_000)).counts).toEqual([1]);
  });

  it("keeps every concurrent request counted, with keys shared across requests in any order", async () => {
    const { db } = await handle;
    const t = Date.UTC(2026, 0, 1, 13, 0, 0);
    const ips = [`${run}:ip:b`, `${run}:ip:c`];
    const wallets = [`${run}:wallet:p`, `${run}:wallet:q`];
    const requests = Array.from({ length: 24 }, (_, i) => [ips[i % 2]!, wallets[Math.floor(i / 2) % 2]!]);
    await Promise.all(requests.map((keys, i) => countRequests(db, i % 3 ? keys : [...keys].reverse(), t)));
    const last = await countRequests(db, [...ips, ...wallets].slice(0, 2), t);
    expect(last.counts).toEqual([13, 13]);
    expect((await countRequests(db, wallets, t)).counts).toEqual([13, 13]);
  });
});
