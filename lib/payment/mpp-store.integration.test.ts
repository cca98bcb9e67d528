import { Store } from "mppx/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Db, openDb } from "@/lib/db/client";
import { uniqueName } from "@/testing/app-fetch";
import { databaseMppStore } from "./mpp-store";

let db: Db;
let close: () => Promise<void>;
beforeAll(async () => {
  ({ db, close } = await openDb({ url: process.env.DATABASE_URL, dataDir: "memory://" }));
});
afterAll(() => close());

describe("the shared mppx store", () => {
  it("claims a replay key once, even when many claim it at the same time", async () => {
    const store = databaseMppStore(db);
    const key = `mppx:charge:${uniqueName()}`;
    const results = await Promise.all(
      Array.from({ length: 10 }, () => Store.tryClaim(store, key, Date.now() + 60_000)),
    );
    expect(results.filter(Boolean)).toHaveLength(1);
  });

  it("lets a marker be claimed again only once it has expired", async () => {
    const store = databaseMppStore(db);
    const key = `mppx:charge:${uniqueName()}`;
    expect(await Store.tryClaim(store, key, Date.now() - 1)).toBe(true);
    expect(await Store.tryClaim(store, key, Date.now() + 60_000)).toBe(true);
    expect(await Store.tryClaim(store, key, Date.now() + 60_000)).toBe(false);
  });

  it("round-trips values with bigints and applies updates atomically", async () => {
    const store = databaseMppStore(db);
    const key = `k:${uniqueName()}`;
    await store.put(key, { spent: 5n, label: "x" });
    expect(await store.get(key)).toEqual({ spent: 5n, label: "x" });
    await Promise.all(
      Array.from({ length: 8 }, () =>
        store.update(key, (current) => {
          const spent = (current as { spent: bigint }).spent + 1n;
          return { op: "set", value: { spent, label: "x" }, result: spent };
        }),
      ),
    );
    expect(await store.get(key)).toEqual({ spent: 13n, label: "x" });
    await store.delete(key);
    expect(await store.get(key)).toBeNull();
  });
});
