import { eq, sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { consumeNonce, issueNonce } from "@/lib/auth/nonces";
import { type Db, openDb } from "./client";
import { siwxNonces } from "./schema";

const handle = openDb({ url: process.env.DATABASE_URL });
afterAll(async () => (await handle).close());

/** The session's synchronous_commit, whichever driver answers. */
async function synchronousCommit(db: Db): Promise<string> {
  const result = (await db.execute(sql`show synchronous_commit`)) as unknown as
    | Array<{ synchronous_commit: string }>
    | { rows: Array<{ synchronous_commit: string }> };
  return (Array.isArray(result) ? result : result.rows)[0]!.synchronous_commit;
}

describe("the asynchronous-commit handle for sign-in nonces and rate-limit counters", () => {
  it.runIf(process.env.DATABASE_URL)(
    "does not wait for the disk on its own connections only: money's handle keeps durable commits",
    async () => {
      const { db, asyncCommit } = await handle;
      expect(await synchronousCommit(asyncCommit)).toBe("off");
      expect(await synchronousCommit(db)).toBe("on");
    },
  );

  it.skipIf(process.env.DATABASE_URL)("is the one embedded database itself", async () => {
    const { db, asyncCommit } = await handle;
    expect(asyncCommit).toBe(db);
  });

  it("spends a nonce once however many race, and the spend is seen at once through the other handle", async () => {
    const { db, asyncCommit } = await handle;
    const { nonce } = await issueNonce(asyncCommit, 60);
    const results = await Promise.all(
      Array.from({ length: 8 }, () =>
        consumeNonce(asyncCommit, nonce, "0x00000000000000000000000000000000000A11CE"),
      ),
    );
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(await consumeNonce(db, nonce, "0x0000000000000000000000000000000000000B0B")).toBe(false);
    const [row] = await db.select().from(siwxNonces).where(eq(siwxNonces.nonce, nonce));
    expect(row?.consumedBy).toBe("0x00000000000000000000000000000000000A11CE");
    await db.delete(siwxNonces).where(eq(siwxNonces.nonce, nonce));
  });
});
