import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { generatePrivateKey } from "viem/accounts";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { getDb } from "@/lib/db/client";
import { createSignInFetch } from "@/scripts/clients/siwx-fetch";
import { APP, appFetch, uniqueName } from "@/testing/app-fetch";
import { addressKey, countRequest, deleteOldWindows } from "./rate-limit";

// Small limits for this file only; env() is read lazily, after this runs.
vi.hoisted(() => {
  process.env.RATE_LIMIT_ADDRESS_PER_MINUTE = "3";
  process.env.RATE_LIMIT_WALLET_PER_MINUTE = "2";
  process.env.TRUST_PROXY = "true";
});

describe("fixed-window counters in the database", () => {
  it("counts per key and per minute, and forgets old windows", async () => {
    const db = await getDb();
    const key = `test:${uniqueName()}`;
    const t = Date.UTC(2026, 0, 1, 12, 0, 30);
    expect(await countRequest(db, key, t)).toEqual({ count: 1, retryAfter: 30 });
    expect((await countRequest(db, key, t + 29_500)).count).toBe(2);
    expect((await countRequest(db, `${key}:other`, t)).count).toBe(1);
    expect(await countRequest(db, key, t + 30_000)).toEqual({ count: 1, retryAfter: 60 });
    expect(await deleteOldWindows(db, t + 60 * 60_000)).toBeGreaterThanOrEqual(3);
    expect((await countRequest(db, key, t)).count).toBe(1);
  });

  it("keeps every concurrent request counted (one upsert each)", async () => {
    const db = await getDb();
    const key = `test:${uniqueName()}`;
    const counts = await Promise.all(Array.from({ length: 10 }, () => countRequest(db, key)));
    expect(counts.map((c) => c.count).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });
});

describe("the address a limit counts", () => {
  it("is an IPv4 address itself and an IPv6 address's /64", () => {
    expect(addressKey("203.0.113.9")).toBe("203.0.113.9");
    expect(addressKey("::ffff:203.0.113.9")).toBe("203.0.113.9");
    expect(addressKey("2001:db8:0:1:aaaa:bbbb:cccc:dddd")).toBe("2001:db8:0:1::/64");
    expect(addressKey("2001:db8:0:1::42")).toBe("2001:db8:0:1::/64");
    expect(addressKey("2001:0db8::1")).toBe("2001:db8:0:0::/64");
    expect(addressKey("::1")).toBe("0:0:0:0::/64");
    expect(addressKey("not-an-address")).toBe("not-an-address");
  });
});

describe("limits on the free endpoints", () => {
  const url = `${APP}/api/namespace/status`;

  // Each test's requests must fall in one window: start well before a minute ends.
  beforeEach(async () => {
    const intoMinute = Date.now() % 60_000;
    if (intoMinute > 45_000) await new Promise((r) => setTimeout(r, 60_100 - intoMinute));
  });

  it("answers 429 with Retry-After once a client address is over its limit", async () => {
    // Behind a trusted proxy the rightmost entry is the address the proxy saw; the rest is the client's say.
    const from = (claimed: string) => ({ headers: { "x-forwarded-for": `${claimed}, 203.0.113.9` } });
    for (let i = 0; i < 3; i++) expect((await appFetch(url, from(`10.0.0.${i}`))).status).toBe(402);
    const limited = await appFetch(url, from("10.0.0.99"));
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(Number(limited.headers.get("retry-after"))).toBeLessThanOrEqual(60);
    expect(limited.headers.get("content-type")).toBe("application/problem+json");
    expect(await limited.json()).toMatchObject({ status: 429, type: "/problems/rate-limited", limit: 3 });
    const other = await appFetch(url, { headers: { "x-forwarded-for": "198.51.100.1" } });
    expect(other.status).toBe(402);
  });

  it("counts MCP tool calls against the address the proxy saw, as the routes they call", async () => {
    // Each tool call is its API route called in process: it must carry the address the proxy appended.
    const proxied: typeof fetch = (input, init) => {
      const headers = new Headers(init?.headers);
      headers.set("x-forwarded-for", "192.0.2.77");
      return appFetch(input, { ...init, headers });
    };
    const client = new Client({ name: "rate-limit-test", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${APP}/mcp`), { fetch: proxied }));
    const call = () => client.callTool({ name: "feedback_status", arguments: {} });
    const limited: boolean[] = [];
    for (let i = 0; i < 4; i++) {
      const { structuredContent } = await call();
      limited.push((structuredContent as { status?: number }).status === 429);
    }
    await client.close();
    expect(limited).toEqual([false, false, false, true]);
    expect((await appFetch(url, { headers: { "x-forwarded-for": "192.0.2.77" } })).status).toBe(429);
  });

  it("limits a signed-in wallet on every free endpoint together", async () => {
    // A wallet of its own: on a shared database, other files may have counted a devnet wallet this minute.
    const reader = createSignInFetch(generatePrivateKey(), appFetch);
    expect((await reader.fetch(url)).status).toBe(200);
    expect((await reader.fetch(`${APP}/api/namespace/list?namespace=${uniqueName()}`)).status).toBe(404);
    const limited = await reader.fetch(url);
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toMatch(/^\d+$/);
  });

  it("limits the webhook settings endpoints like every other free read", async () => {
    // A wallet of its own: no other test has counted requests against it this minute.
    const owner = createSignInFetch(generatePrivateKey(), appFetch);
    const namespace = uniqueName("rl");
    expect((await owner.fetch(`${APP}/api/namespace/webhook?namespace=${namespace}`)).status).toBe(404);
    const deliveries = `${APP}/api/namespace/webhook/deliveries?namespace=${namespace}`;
    expect((await owner.fetch(deliveries)).status).toBe(404);
    const limited = await owner.fetch(`${APP}/api/namespace/webhook/rotate`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ namespace }),
    });
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toMatch(/^\d+$/);
  });
});

describe("every signed-in API route", () => {
  it("signs in through the rate-limited helper, never around it", () => {
    const routes: string[] = [];
    const walk = (dir: string) => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) walk(path);
        else if (entry.name === "route.ts") routes.push(path);
      }
    };
    walk(join(process.cwd(), "app/api"));
    expect(routes.length).toBeGreaterThan(10);
    const bypassing = routes.filter((r) => /\brequireSignIn\b/.test(readFileSync(r, "utf8")));
    expect(bypassing).toEqual([]);
  });
});
