import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { devnetX402Payer } from "@/scripts/clients/x402-payer";
import { APP, appFetch, postJson, uniqueName } from "@/testing/app-fetch";
import { workerDevnet } from "@/testing/worker-devnet";

// /healthz, /readyz and /metrics through their routes, on the devnet, with /metrics switched on.
const TOKEN = "ops-test-metrics-token-0123456789";
process.env.METRICS_TOKEN = TOKEN;

const devnet = workerDevnet();
const scrape = (authorization?: string) =>
  appFetch(`${APP}/metrics`, authorization ? { headers: { authorization } } : {});

// The first query migrates the embedded database, longer than a readiness check may wait.
beforeAll(() => getDb());

describe("operations endpoints", () => {
  it("/healthz answers 200 at once, as an API answer with a request id", async () => {
    const res = await appFetch(`${APP}/healthz`, { headers: { "x-request-id": "probe-1" } });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: "ok" });
    expect(res.headers.get("x-request-id")).toBe("probe-1");
    expect(res.headers.get("content-security-policy")).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(res.headers.get("cache-control")).toMatch(/no-store/);
  });

  it("/readyz is 200 with every check passed on the devnet, and names no URL or key", async () => {
    const res = await appFetch(`${APP}/readyz`);
    const text = await res.text();
    expect(res.status).toBe(200);
    const body = JSON.parse(text);
    expect(body.status).toBe("ready");
    expect(body.protocols).toEqual({ x402: true, mpp: true, rewards: true });
    expect(Object.keys(body.checks).sort()).toEqual([
      "database",
      "payoutBalance",
      "sharedSecrets",
      "tempoChain",
      "x402Chain",
    ]);
    for (const check of Object.values(body.checks)) {
      expect(check).toEqual({ ok: true, latencyMs: expect.any(Number) });
    }
    for (const secret of [devnet.x402.rpcUrl, devnet.tempo.rpcUrl, "127.0.0.1", "0x"]) {
      expect(text).not.toContain(secret);
    }
    // A second probe within the cache window gets the same result, without asking the chains again.
    expect(await (await appFetch(`${APP}/readyz`)).json()).toEqual(body);
  });

  it("/metrics refuses a missing or wrong token with 401", async () => {
    for (const authorization of [undefined, "Bearer wrong-token-0123456789", `Basic ${TOKEN}`, TOKEN]) {
      const res = await scrape(authorization);
      expect(res.status).toBe(401);
      expect(res.headers.get("www-authenticate")).toBe('Bearer realm="metrics"');
      expect(await res.text()).not.toContain("feedback_");
    }
  });

  it("/metrics counts a real paid call by outcome and phase, with queues, readiness and the process", async () => {
    const agent = devnetX402Payer(devnet, 6, appFetch);
    const res = await agent.fetch(
      `${APP}/api/namespace/feedback`,
      postJson({
        namespace: uniqueName("ops"),
        type: "bug",
        title: "Metrics count me",
        description: "A paid call the scrape must see.",
      }),
    );
    expect(res.status).toBe(200);
    const scraped = await scrape(`Bearer ${TOKEN}`);
    expect(scraped.status).toBe(200);
    expect(scraped.headers.get("content-type")).toBe("text/plain; version=0.0.4; charset=utf-8");
    const lines = (await scraped.text()).split("\n");
    expect(lines).toContain(
      'feedback_paid_requests_total{operation="feedback",protocol="x402",outcome="ok"} 1',
    );
    expect(lines).toContain(
      'feedback_paid_requests_total{operation="feedback",protocol="none",outcome="challenged"} 1',
    );
    for (const phase of ["claim", "settle", "store", "total"]) {
      expect(lines).toContain(
        `feedback_paid_phase_duration_seconds_count{operation="feedback",protocol="x402",phase="${phase}"} 1`,
      );
    }
    expect(lines).toContain(
      'feedback_http_requests_total{route="/api/namespace/feedback",method="POST",status="2xx"} 1',
    );
    expect(lines).toContain(
      'feedback_http_requests_total{route="/api/namespace/feedback",method="POST",status="4xx"} 1',
    );
    expect(lines).toContain("feedback_metrics_database_up 1");
    // PostgreSQL's pool is counted (the embedded database has one connection and no pool).
    if (process.env.DATABASE_URL) {
      const size = lines.find((l) => l.startsWith("feedback_db_pool_connections "));
      expect(Number(size?.split(" ")[1])).toBeGreaterThanOrEqual(10);
      const waits = lines.find((l) => l.startsWith("feedback_db_pool_waits_total "));
      const sent = lines.find((l) => l.startsWith("feedback_db_pool_statements_total "));
      expect(Number(sent?.split(" ")[1])).toBeGreaterThan(0);
      expect(Number(waits?.split(" ")[1])).toBeGreaterThanOrEqual(0);
    } else {
      expect(lines.some((l) => l.startsWith("feedback_db_pool_"))).toBe(false);
    }
    expect(lines).toContain('feedback_ready_check{check="tempoChain"} 1');
    // The queues are the shared database's (DATABASE_URL may hold other runs' rows): present, counted.
    for (const name of [
      "feedback_open_claims",
      'feedback_payouts_open{status="pending"}',
      "feedback_webhook_deliveries_pending",
      "feedback_payout_balance_usd",
      "process_resident_memory_bytes",
      "nodejs_heap_size_used_bytes",
    ]) {
      expect(lines.some((l) => l.startsWith(`${name} `))).toBe(true);
    }
  });
});
