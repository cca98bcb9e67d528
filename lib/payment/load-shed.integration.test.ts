import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { feedback } from "@/lib/db/schema";
import { loopLagMs, shedLimitMs } from "@/lib/http/load-shed";
import { WINDOW_MS } from "@/lib/http/rate-limit";
import { devnetX402Payer } from "@/scripts/clients/x402-payer";
import { APP, appFetch, postJson, uniqueName } from "@/testing/app-fetch";
import { chainReader } from "@/testing/chain";
import { workerDevnet } from "@/testing/worker-devnet";

// A process past its CPU refuses new paid calls before reading their payment (lib/http/load-shed.ts). The
// overload is real: this process's own event loop, kept late on every tick, as the route's monitor reads it.
// The devnet's configuration raises the limit for every other test run; here it is 250 ms, above what a loaded
// machine's scheduling alone adds to a test process's ticks, below the 400 ms each of them is held here.
process.env.SHED_LOOP_DELAY_MS = "250";
// One client's paid-call budget, small enough to spend here: counted by the X-Forwarded-For a proxy writes.
process.env.TRUST_PROXY = "true";
process.env.RATE_LIMIT_PAID_ADDRESS_PER_MINUTE = "3";
const devnet = workerDevnet();
const wallet = devnet.accounts[3]!;
const chain = chainReader(devnet.x402.rpcUrl, devnet.x402.asset);
const payer = devnetX402Payer(devnet, 3, appFetch);
const feedbackUrl = `${APP}/api/namespace/feedback`;
const body = (namespace: string) => ({
  namespace,
  type: "bug",
  title: "Slow under load",
  description: "Every call took a minute while the service was busy.",
});

/**
 * Keeps the thread busy 400 ms at a time, yielding between, so each tick of the loop comes late, until the
 * monitor reads it as overload (two half-second readings in a row): a process past its CPU.
 */
async function overload() {
  for (const end = performance.now() + 10_000; loopLagMs() <= shedLimitMs(); ) {
    if (performance.now() > end) throw new Error(`the loop read ${loopLagMs()} ms of lag after 10 s`);
    const until = performance.now() + 400;
    while (performance.now() < until) {}
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** Waits until the loop's median lag has come back under the limit (the next half-second reading). */
async function calm() {
  for (const end = Date.now() + 10_000; loopLagMs() > shedLimitMs(); ) {
    if (Date.now() > end) throw new Error(`the loop still lags ${loopLagMs()} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe("load shedding on paid calls", () => {
  it("refuses a new ask and a signed payment with 503 service-busy while the loop lags, then takes the same payment", async () => {
    const namespace = uniqueName("busy");
    const input = body(namespace);
    loopLagMs();
    const asked = await appFetch(feedbackUrl, postJson(input));
    expect(asked.status).toBe(402);
    const signature = await payer.sign(asked.headers.get("payment-required")!);
    const before = await chain.balanceOf(wallet.address);

    // The next reading comes half a second after the one that saw the overload: the calls go before it.
    await overload();
    const refusedAsk = await appFetch(feedbackUrl, postJson(input));
    const refusedPaid = await appFetch(feedbackUrl, postJson(input, { "payment-signature": signature }));
    for (const res of [refusedAsk, refusedPaid]) {
      expect(res.status).toBe(503);
      expect(res.headers.get("content-type")).toMatch(/^application\/problem\+json/);
      expect(Number(res.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
      expect(Number(res.headers.get("retry-after"))).toBeLessThanOrEqual(4);
      // No challenge to sign from, and no word of a charge.
      expect(res.headers.get("payment-required")).toBeNull();
      expect(res.headers.get("www-authenticate")).toBeNull();
      const problem = await res.json();
      expect(problem).toMatchObject({ type: "/problems/service-busy", status: 503 });
      expect(problem.detail).toMatch(/nothing was charged/);
    }
    // Nothing stored, nothing moved.
    const db = await getDb();
    expect(await db.select().from(feedback).where(eq(feedback.namespace, namespace))).toHaveLength(0);
    expect(await chain.balanceOf(wallet.address)).toBe(before);

    // Once the loop keeps up again, the same signed payment is taken: the refusal left it unspent.
    await calm();
    const taken = await appFetch(feedbackUrl, postJson(input, { "payment-signature": signature }));
    expect(taken.status).toBe(200);
    expect(await chain.balanceOf(wallet.address)).toBe(before - 10_000n);
    expect(await db.select().from(feedback).where(eq(feedback.namespace, namespace))).toHaveLength(1);
  });

  it("tells a client past its own paid limit 429 even while the process sheds everyone else's calls", async () => {
    const flooder = { "x-forwarded-for": "198.51.100.77" };
    const ask = () => appFetch(feedbackUrl, postJson(body(uniqueName("flood")), flooder));
    // The budget is counted in fixed one-minute windows: the asks and the overload (up to 10 s on a busy
    // machine) fall in one, never across a window's end, where the count would start again.
    const left = WINDOW_MS - (Date.now() % WINDOW_MS);
    if (left < 20_000) await new Promise((resolve) => setTimeout(resolve, left + 100));
    for (let n = 0; n < 3; n++) expect((await ask()).status).toBe(402);
    loopLagMs();
    await overload();
    const refused = await ask();
    expect(refused.status).toBe(429);
    expect((await refused.json()).type).toBe("/problems/rate-limited");
    // Another client, within its limit, is shed as the load says.
    const other = await appFetch(
      feedbackUrl,
      postJson(body(uniqueName("other")), { "x-forwarded-for": "198.51.100.78" }),
    );
    expect(other.status).toBe(503);
    await calm();
  }, 90_000);

  it("reads one long pause as no overload: a collection or a module loaded does not shed", async () => {
    await calm();
    const started = performance.now();
    while (performance.now() - started < 1500) {}
    // The reading that holds the pause is its own: the one before it was calm.
    expect(loopLagMs()).toBeLessThanOrEqual(shedLimitMs());
    expect((await appFetch(feedbackUrl, postJson(body(uniqueName("pause"))))).status).toBe(402);
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(loopLagMs()).toBeLessThanOrEqual(shedLimitMs());
    expect((await appFetch(feedbackUrl, postJson(body(uniqueName("pause"))))).status).toBe(402);
  });
});
