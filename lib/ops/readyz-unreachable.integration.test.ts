import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { APP, appFetch } from "@/testing/app-fetch";

// The x402 chain points at the discard port (nothing answers), and the payout wallet must hold more
// than it does; METRICS_TOKEN is not set.
process.env.X402_RPC_URL = "http://127.0.0.1:9";
process.env.READY_MIN_PAYOUT_BALANCE = "1000000000";

beforeAll(() => getDb());

describe("readiness on a bad day", () => {
  it("/readyz stays 200 (degraded) with x402 out when its chain cannot be reached, naming it without its URL", async () => {
    const res = await appFetch(`${APP}/readyz`);
    const text = await res.text();
    // The instance still serves MPP payments and every free read: an orchestrator keeps it in rotation.
    expect(res.status).toBe(200);
    const body = JSON.parse(text);
    expect(body.status).toBe("degraded");
    expect(body.protocols).toEqual({ x402: false, mpp: true, rewards: false });
    expect(body.checks.x402Chain).toEqual({ ok: false, latencyMs: expect.any(Number), error: "unreachable" });
    // "unreachable", not the 2 s check timeout's words: refused at once. The latency only shows it was bounded.
    expect(body.checks.x402Chain.latencyMs).toBeLessThan(10_000);
    expect(body.checks.database.ok).toBe(true);
    expect(body.checks.tempoChain.ok).toBe(true);
    expect(text).not.toContain("127.0.0.1");
  });

  it("warns, without failing, when the payout wallet is below READY_MIN_PAYOUT_BALANCE", async () => {
    const body = await (await appFetch(`${APP}/readyz`)).json();
    expect(body.checks.payoutBalance).toEqual({
      ok: true,
      latencyMs: expect.any(Number),
      warning: expect.stringMatching(/^below READY_MIN_PAYOUT_BALANCE \(1000000000 USD\)/),
    });
  });

  it("/metrics is off (404) without METRICS_TOKEN, whatever the request carries", async () => {
    const res = await appFetch(`${APP}/metrics`, {
      headers: { authorization: "Bearer anything-at-all-123" },
    });
    expect(res.status).toBe(404);
    expect(await res.text()).not.toContain("feedback_");
  });
});
