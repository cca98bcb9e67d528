import { and, eq } from "drizzle-orm";
import { serializeErc6492Signature } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { getAsyncCommitDb, getDb } from "@/lib/db/client";
import { rateLimits } from "@/lib/db/schema";
import { handle, json } from "@/lib/http/handler";
import { parseServerTiming } from "@/lib/http/server-timing";
import { signInHeader } from "@/testing/sign-in";
import { limitedSignedRead, limitedSignIn } from "./limited-sign-in";
import { SIWX_HEADER } from "./siwx";

// This file's limits and a trusted proxy, read lazily on first use. Both chains point at a node that
// records each JSON-RPC method asked and answers every call with a 503: a chain that cannot vouch for
// anything, and a record of whether anything here reached for one.
const chain = await vi.hoisted(async () => {
  process.env.RATE_LIMIT_ADDRESS_PER_MINUTE = "4";
  process.env.RATE_LIMIT_WALLET_PER_MINUTE = "2";
  process.env.TRUST_PROXY = "true";
  const { createServer } = await import("node:http");
  const methods: string[] = [];
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => {
      body += chunk;
    });
    req.on("end", () => {
      methods.push(JSON.parse(body).method);
      res.writeHead(503, { "content-type": "text/plain" });
      res.end("unavailable");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  process.env.X402_RPC_URL = url;
  process.env.TEMPO_RPC_URL = url;
  return { methods, server };
});
afterAll(() => chain.server.close());

const ORIGIN = "http://localhost:3000";
const route = handle(async (request) => json(await limitedSignIn(request)));
let client = 0;
/** A request from a client address of its own, so no two tests share an address's budget. */
const from = (ip: string, headers: Record<string, string> = {}) =>
  new Request(`${ORIGIN}/api/namespace/status`, { headers: { "x-forwarded-for": ip, ...headers } });
// A network of this run's own, so a run on a database another run counted in this minute starts afresh.
const net = Math.floor(Math.random() * 65_536);
const newAddress = () => `10.${net >> 8}.${net & 255}.${++client}`;

async function proof(key = generatePrivateKey(), sign?: (message: string) => Promise<`0x${string}`>) {
  const account = privateKeyToAccount(key);
  const signer = sign
    ? { address: account.address, signMessage: ({ message }: { message: string }) => sign(message) }
    : key;
  // Each challenge from an address of its own, so asking for it spends no test's budget.
  const challenge = (() => route(from(newAddress()))) as unknown as typeof fetch;
  return signInHeader(challenge, `${ORIGIN}/api/namespace/status`, signer);
}

/** This minute's count under `key`, as the database holds it. */
async function countOf(key: string) {
  const windowStart = new Date(Math.floor(Date.now() / 60_000) * 60_000);
  const db = await getDb();
  const [row] = await db
    .select({ count: rateLimits.count })
    .from(rateLimits)
    .where(and(eq(rateLimits.key, key), eq(rateLimits.windowStart, windowStart)));
  return row?.count ?? 0;
}

type Send = (text: string, ...rest: unknown[]) => unknown;

/**
 * Records the SQL text of every statement the database's driver is sent from now on (PGlite's `query`,
 * postgres.js's `unsafe`: prepared or not, each statement passes through one of them). `hold` may return
 * a promise a statement then waits for before it is sent.
 */
async function watchStatements(hold?: (text: string) => Promise<void> | undefined): Promise<string[]> {
  const sent: string[] = [];
  // Both handles: on PostgreSQL the nonce and counters go through the asynchronous-commit pool, the
  // reads through the other; on PGlite they are one client.
  const clients = new Set(
    [await getDb(), await getAsyncCommitDb()].map(
      (db) => (db as unknown as { $client: Record<string, Send> }).$client,
    ),
  );
  for (const client of clients) {
    const method = typeof client.unsafe === "function" ? "unsafe" : "query";
    const send = client[method]!.bind(client);
    vi.spyOn(client, method).mockImplementation((text: string, ...rest: unknown[]) => {
      sent.push(text);
      const waiting = hold?.(text);
      return waiting ? waiting.then(() => send(text, ...rest)) : send(text, ...rest);
    });
  }
  return sent;
}

const spendsNonce = (text: string) => text.includes('"siwx_nonces"');

// Each test's requests must fall in one minute's window: start well before a minute ends.
beforeEach(async () => {
  const intoMinute = Date.now() % 60_000;
  if (intoMinute > 50_000) await new Promise((resolve) => setTimeout(resolve, 60_100 - intoMinute));
});
afterEach(() => vi.restoreAllMocks());

describe("signing in to a free endpoint", () => {
  it("verifies a plain wallet's proof with every chain unreachable, and never calls out", async () => {
    const header = await proof();
    chain.methods.length = 0;
    const response = await route(from(newAddress(), { [SIWX_HEADER]: header }));
    expect(response.status).toBe(200);
    expect(chain.methods).toEqual([]);
  });

  it("takes a wrapped (EIP-6492) signature to the chain, even when its inner signature is the wallet's own", async () => {
    const key = generatePrivateKey();
    const account = privateKeyToAccount(key);
    const header = await proof(key, async (message) =>
      serializeErc6492Signature({
        address: "0x000000000000000000000000000000000000fac7",
        data: "0x",
        signature: await account.signMessage({ message }),
      }),
    );
    chain.methods.length = 0;
    const response = await route(from(newAddress(), { [SIWX_HEADER]: header }));
    // The chain cannot answer here, so it cannot vouch for the signature: refused, not accepted locally.
    expect(response.status).toBe(401);
    expect(chain.methods).toEqual(["eth_call"]);
  });

  it("counts the address and the wallet in one statement and enforces both limits", async () => {
    const ip = newAddress();
    const key = generatePrivateKey();
    const wallet = `wallet:${privateKeyToAccount(key).address.toLowerCase()}`;
    for (let i = 0; i < 2; i++) {
      expect((await route(from(ip, { [SIWX_HEADER]: await proof(key) }))).status).toBe(200);
    }
    expect([await countOf(`ip:${ip}`), await countOf(wallet)]).toEqual([2, 2]);
    // Third for the wallet: over its limit, and the address is counted all the same.
    const limited = await route(from(ip, { [SIWX_HEADER]: await proof(key) }));
    expect(limited.status).toBe(429);
    expect(await limited.json()).toMatchObject({ limit: 2, detail: expect.stringMatching(/wallet/) });
    expect([await countOf(`ip:${ip}`), await countOf(wallet)]).toEqual([3, 3]);
  });

  it("spends the nonce and counts both budgets in one statement, and a replayed proof never counts its wallet", async () => {
    const ip = newAddress();
    const key = generatePrivateKey();
    const wallet = `wallet:${privateKeyToAccount(key).address.toLowerCase()}`;
    const header = await proof(key);
    const sent = await watchStatements();
    expect((await route(from(ip, { [SIWX_HEADER]: header }))).status).toBe(200);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatch(/update "siwx_nonces"[\s\S]*insert into "rate_limits"/);
    vi.restoreAllMocks();
    // Someone else replays the used proof from another address: refused, counted against that address only.
    const other = newAddress();
    const replay = await route(from(other, { [SIWX_HEADER]: header }));
    expect(replay.status).toBe(401);
    expect(await replay.json()).toMatchObject({ detail: expect.stringMatching(/nonce/) });
    expect([await countOf(`ip:${ip}`), await countOf(`ip:${other}`), await countOf(wallet)]).toEqual([
      1, 1, 1,
    ]);
  });

  it("refuses an address over its limit before any proof is checked, without another round trip", async () => {
    const ip = newAddress();
    for (let i = 0; i < 4; i++) expect((await route(from(ip))).status).toBe(402);
    expect((await route(from(ip))).status).toBe(429);
    const counted = await countOf(`ip:${ip}`);
    const garbage = await route(from(ip, { [SIWX_HEADER]: "not a proof" }));
    expect(garbage.status).toBe(429);
    expect(Number(garbage.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(await countOf(`ip:${ip}`)).toBe(counted);
  });

  it("counts a refused proof against the address", async () => {
    const ip = newAddress();
    const refused = await route(from(ip, { [SIWX_HEADER]: "not a proof" }));
    expect(refused.status).toBe(401);
    expect(await countOf(`ip:${ip}`)).toBe(1);
  });

  it("answers with Server-Timing: the sign-in, the rest of the route, and the total", async () => {
    const response = await route(from(newAddress(), { [SIWX_HEADER]: await proof() }));
    const timing = parseServerTiming(response.headers.get("server-timing"));
    expect(Object.keys(timing)).toEqual(["auth", "db", "total"]);
    expect(timing.total).toBeGreaterThanOrEqual(timing.auth! + timing.db! - 0.2);
    const challenge = await route(from(newAddress()));
    expect(Object.keys(parseServerTiming(challenge.headers.get("server-timing")))).toEqual(["auth", "total"]);
  });

  describe("a signed read", () => {
    it("starts reading beside the statement that spends the nonce, not after it", async () => {
      let readStarted: () => void = () => undefined;
      const started = new Promise<void>((resolve) => {
        readStarted = resolve;
      });
      let startedFirst = false;
      // The nonce's statement answers only once the read has begun (or after 5 s, so a regression fails
      // instead of hanging).
      await watchStatements((text) =>
        spendsNonce(text)
          ? Promise.race([
              started.then(() => true),
              new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 5_000)),
            ]).then((first) => {
              startedFirst = first;
            })
          : undefined,
      );
      const reading = handle(async (request) =>
        json(
          await limitedSignedRead(request, async (identity) => {
            readStarted();
            return { read: identity.address };
          }),
        ),
      );
      const key = generatePrivateKey();
      const response = await reading(from(newAddress(), { [SIWX_HEADER]: await proof(key) }));
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ read: privateKeyToAccount(key).address });
      expect(startedFirst).toBe(true);
    });

    it("answers the refusal, never what was read, for a replayed proof or a caller over its limit", async () => {
      let failing = false;
      const reading = handle(async (request) =>
        json(
          await limitedSignedRead(request, async () => {
            // A read that fails (as a stranger's read of a namespace does) must not replace the refusal.
            if (failing) throw new Error("this read must never be answered");
            return { secret: "inbox" };
          }),
        ),
      );
      const key = generatePrivateKey();
      const header = await proof(key);
      expect((await reading(from(newAddress(), { [SIWX_HEADER]: header }))).status).toBe(200);
      failing = true;
      const replay = await reading(from(newAddress(), { [SIWX_HEADER]: header }));
      failing = false;
      expect(replay.status).toBe(401);
      expect(await replay.json()).toMatchObject({ detail: expect.stringMatching(/nonce/) });

      const ip = newAddress();
      const spender = generatePrivateKey();
      for (let i = 0; i < 2; i++) {
        expect((await reading(from(ip, { [SIWX_HEADER]: await proof(spender) }))).status).toBe(200);
      }
      const over = await reading(from(ip, { [SIWX_HEADER]: await proof(spender) }));
      expect(over.status).toBe(429);
      expect(JSON.stringify(await over.json())).not.toContain("inbox");
    });
  });
});
