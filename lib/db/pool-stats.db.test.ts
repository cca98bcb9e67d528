import postgres from "postgres";
import { afterAll, describe, expect, it } from "vitest";
import { countingPool, poolStats, takePeak } from "./pool-stats";

// A real pool of two connections on the PostgreSQL lane: what it counts is what postgres.js did.
const url = process.env.DATABASE_URL;
const sql = url ? countingPool(postgres(url, { max: 2, onnotice: () => {} }), 2) : undefined;
afterAll(async () => sql?.end({ timeout: 5 }));

describe("the pool's counts", () => {
  it.runIf(url)(
    "counts statements and transactions in flight, and those that found every connection taken",
    async () => {
      const before = poolStats();
      expect(before.size).toBeGreaterThanOrEqual(2);
      takePeak();
      const sleeps = Array.from({ length: 3 }, () => sql!.unsafe("select pg_sleep(0.2)").values());
      const transaction = sql!.begin((tx) => tx`select pg_sleep(0.2)`);
      await Promise.all([...sleeps, transaction]);
      const after = poolStats();
      expect(after.begun - before.begun).toBe(4);
      // Two connections for four: the third and the fourth waited behind another.
      expect(after.waited - before.waited).toBe(2);
      expect(after.inFlight).toBe(0);
      expect(takePeak()).toBe(4);
      // A failed statement leaves the count too.
      await expect(sql!.unsafe("select 1/0")).rejects.toThrow();
      expect(poolStats().inFlight).toBe(0);
      await sql!.end({ timeout: 5 });
      expect(poolStats().size).toBe(before.size - 2);
    },
  );
});
