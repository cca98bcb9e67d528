import { sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { openDb } from "./client";

// Its own handle (a pool with DATABASE_URL): the two transactions must run on separate connections.
const handle = openDb({ url: process.env.DATABASE_URL });
afterAll(async () => (await handle).close());

describe.runIf(process.env.DATABASE_URL)("transactions that race at serializable isolation", () => {
  it("both commit: the one PostgreSQL rolls back (40001) runs again on its own", async () => {
    const { db } = await handle;
    const table = `race_${Date.now()}_${Math.random().toString(36).slice(2, 8)}`;
    await db.execute(sql.raw(`create table ${table} (n int not null)`));
    try {
      // Write skew: each reads the total, then both write. At serializable, PostgreSQL lets only one of
      // them commit as run; the barrier makes both read before either writes, so the race is certain.
      let arrived = 0;
      let open: () => void = () => {};
      const barrier = new Promise<void>((resolve) => {
        open = resolve;
      });
      let runs = 0;
      const add = () =>
        db.transaction(
          async (tx) => {
            runs++;
            const [row] = (await tx.execute(
              sql.raw(`select count(*)::int as n from ${table}`),
            )) as unknown as {
              n: number;
            }[];
            if (++arrived === 2) open();
            await Promise.race([barrier, new Promise((r) => setTimeout(r, 2_000))]);
            await tx.execute(sql.raw(`insert into ${table} values (${row!.n + 1})`));
          },
          { isolationLevel: "serializable" },
        );
      await Promise.all([add(), add()]);
      const rows = (await db.execute(sql.raw(`select n from ${table} order by n`))) as unknown as {
        n: number;
      }[];
      expect(rows.map((r) => r.n)).toEqual([1, 2]);
      expect(runs).toBeGreaterThanOrEqual(3);
    } finally {
      await db.execute(sql.raw(`drop table ${table}`));
    }
  });
});
