import "server-only";
import { eq, sql } from "drizzle-orm";
import type { Store } from "mppx/server";
import * as Json from "ox/Json";
import { type Db, getDb } from "@/lib/db/client";
import { mppStore } from "@/lib/db/schema";

// ox's JSON keeps bigints (mppx stores some); it round-trips through jsonb as plain JSON.
const encode = (value: unknown) => JSON.parse(Json.stringify(value)) as unknown;
const decode = (value: unknown) => Json.parse(JSON.stringify(value)) as never;
const expiryOf = (value: unknown) => {
  const expires = (value as { expires?: unknown } | null)?.expires;
  return typeof expires === "number" ? new Date(expires) : null;
};

/**
 * mppx's atomic store in the shared database, so a credential replayed against any app instance is
 * refused. Read-modify-write runs under a transaction-scoped advisory lock on the key.
 */
export function databaseMppStore(dbOrLazy?: Db): Store.AtomicStore {
  const db = () => (dbOrLazy ? Promise.resolve(dbOrLazy) : getDb());
  return {
    async get(key) {
      const [row] = await (await db())
        .select({ value: mppStore.value })
        .from(mppStore)
        .where(eq(mppStore.key, key));
      return row ? decode(row.value) : null;
    },
    async put(key, value) {
      const v = encode(value);
      await (await db())
        .insert(mppStore)
        .values({ key, value: v, expiresAt: expiryOf(value) })
        .onConflictDoUpdate({ target: mppStore.key, set: { value: v, expiresAt: expiryOf(value) } });
    },
    async delete(key) {
      await (await db()).delete(mppStore).where(eq(mppStore.key, key));
    },
    async update(key, fn) {
      return (await db()).transaction(async (tx) => {
        await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`mpp:${key}`}, 0))`);
        const [row] = await tx.select({ value: mppStore.value }).from(mppStore).where(eq(mppStore.key, key));
        const change = fn(row ? decode(row.value) : null);
        if (change.op === "set") {
          const v = encode(change.value);
          await tx
            .insert(mppStore)
            .values({ key, value: v, expiresAt: expiryOf(change.value) })
            .onConflictDoUpdate({
              target: mppStore.key,
              set: { value: v, expiresAt: expiryOf(change.value) },
            });
        } else if (change.op === "delete") {
          await tx.delete(mppStore).where(eq(mppStore.key, key));
        }
        return change.result;
      });
    },
    async tryClaim(key, expires) {
      // One statement: insert the marker, or take over a marker that has expired; never a live one.
      const marker = { expires, type: "mppx:replay" };
      const rows = await (await db())
        .insert(mppStore)
        .values({ key, value: marker, expiresAt: new Date(expires) })
        .onConflictDoUpdate({
          target: mppStore.key,
          set: { value: marker, expiresAt: new Date(expires) },
          setWhere: sql`${mppStore.expiresAt} is not null and ${mppStore.expiresAt} <= now()`,
        })
        .returning({ key: mppStore.key });
      return rows.length === 1;
    },
  };
}
