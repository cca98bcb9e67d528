import { expect, test } from "@playwright/test";
import { freePort } from "../../scripts/devnet/anvil";
import { devnetAppEnv } from "../../scripts/devnet/app-env";
import { type AppInstance, appInstance } from "../chaos/apps";
import { devnet, item } from "./fixtures";

// A `next start` of its own with small limits and a database of its own (the counters are shared
// through the database), reached directly, with no proxy in front: TRUST_PROXY is off.
let app: AppInstance;
const LIMIT = 4;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  const port = await freePort();
  app = appInstance(
    port,
    {
      ...devnetAppEnv({ ...devnet, appUrl: `http://localhost:${port}` }, { pgliteDir: "memory://" }),
      DATABASE_URL: "",
      RATE_LIMIT_PAID_ADDRESS_PER_MINUTE: String(LIMIT),
      RATE_LIMIT_ADDRESS_PER_MINUTE: String(LIMIT),
    },
    () => {},
  );
  await app.start();
});

test.afterAll(async () => {
  await app?.stop();
});

// The counters are fixed one-minute windows: start each test well before a minute ends.
test.beforeEach(async () => {
  const intoMinute = Date.now() % 60_000;
  if (intoMinute > 40_000) await new Promise((r) => setTimeout(r, 60_500 - intoMinute));
});

const send = (path: string, init: RequestInit) => fetch(`${app.url}${path}`, init);
const post = (headers: Record<string, string>) =>
  send("/api/namespace/feedback", {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(item("limited")),
  });

test("a paid endpoint counts every request by the socket's address, whatever X-Forwarded-For claims", async () => {
  for (let i = 0; i < LIMIT; i++) {
    expect((await post({ "x-forwarded-for": `198.51.100.${i}` })).status).toBe(402);
  }
  // A new claimed address every time changes nothing: the client chose it.
  const limited = await post({ "x-forwarded-for": "203.0.113.77" });
  expect(limited.status).toBe(429);
  expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
  // Counted before any credential is read: a bogus one costs the service nothing more.
  expect((await post({ "payment-signature": "bm90IGEgY3JlZGVudGlhbA==" })).status).toBe(429);
});

test("the free endpoints count the socket's address too, not a forged X-Forwarded-For", async () => {
  const statuses: number[] = [];
  for (let i = 0; i <= LIMIT; i++) {
    statuses.push(
      (await send("/api/namespace/status", { headers: { "x-forwarded-for": `10.9.8.${i}` } })).status,
    );
  }
  expect(statuses).toEqual([...Array(LIMIT).fill(402), 429]);
});
