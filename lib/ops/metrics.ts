import "server-only";
import { poolStats, takePeak } from "@/lib/db/pool-stats";
import { env } from "@/lib/env";
import { requireBearer } from "@/lib/http/bearer";
import { registeredFamilies } from "@/lib/http/metrics";
import {
  EXPOSITION_CONTENT_TYPE,
  type MetricFamily,
  oneSample,
  renderExposition,
} from "@/lib/http/prometheus";
import { API_SECURITY_HEADERS } from "@/lib/http/security-headers";
import { backlogFamilies } from "./backlog";
import { processFamilies } from "./process-metrics";
import { type Readiness, readiness } from "./readiness";

function readinessFamilies(ready: Readiness): MetricFamily[] {
  const families: MetricFamily[] = [
    {
      name: "feedback_ready_check",
      help: "Readiness checks as /readyz runs them (cached 1.5 s): 1 passed, 0 failed.",
      type: "gauge",
      samples: Object.entries(ready.checks).map(([check, c]) => ({ labels: { check }, value: c.ok ? 1 : 0 })),
    },
    {
      name: "feedback_protocol_up",
      help: "What this instance can take now, as /readyz says (cached 1.5 s): 1 up, 0 out.",
      type: "gauge",
      samples: Object.entries(ready.protocols).map(([protocol, up]) => ({
        labels: { protocol },
        value: up ? 1 : 0,
      })),
    },
  ];
  if (ready.payoutBalance !== null) {
    families.push({
      name: "feedback_payout_balance_usd",
      help: "USDC.e held by the payout wallet on Tempo, in USD.",
      type: "gauge",
      // Money stays integer everywhere else; a gauge is a float by definition, read by people.
      samples: [{ value: Number(ready.payoutBalance) / 1e6 }],
    });
  }
  return families;
}

/** The PostgreSQL pool of this process (none on the embedded database, which has one connection). */
function poolFamilies(): MetricFamily[] {
  const pool = poolStats();
  if (pool.size === 0) return [];
  const gauge = oneSample;
  const counter = (name: string, help: string, value: number) => oneSample(name, help, value, "counter");
  return [
    gauge("feedback_db_pool_connections", "Connections of this process's statement pool.", pool.size),
    gauge("feedback_db_pool_in_flight", "Statements and transactions running or waiting now.", pool.inFlight),
    gauge(
      "feedback_db_pool_in_flight_peak",
      "The most statements and transactions in flight at once since the previous scrape.",
      takePeak(),
    ),
    counter(
      "feedback_db_pool_statements_total",
      "Statements and transactions sent through the pool.",
      pool.begun,
    ),
    counter(
      "feedback_db_pool_waits_total",
      "Statements and transactions that found every connection taken and waited behind another.",
      pool.waited,
    ),
  ];
}

/** The Prometheus scrape: what this process recorded, its own figures, the shared queues, readiness. */
export async function metricsResponse(request: Request): Promise<Response> {
  // Refuses a scrape unless METRICS_TOKEN is set (404: off) and the request carries it (401).
  requireBearer(request, env().METRICS_TOKEN, "metrics");
  const [backlog, ready] = await Promise.all([
    backlogFamilies().then(
      (families) => ({ up: 1, families }),
      () => ({ up: 0, families: [] as MetricFamily[] }),
    ),
    readiness(),
  ]);
  const families: MetricFamily[] = [
    ...registeredFamilies(),
    ...backlog.families,
    {
      name: "feedback_metrics_database_up",
      help: "1 when this scrape could read the queue figures from the database, 0 when it could not.",
      type: "gauge",
      samples: [{ value: backlog.up }],
    },
    ...readinessFamilies(ready),
    ...poolFamilies(),
    ...processFamilies(),
  ];
  return new Response(renderExposition(families), {
    headers: {
      ...API_SECURITY_HEADERS,
      "content-type": EXPOSITION_CONTENT_TYPE,
      "cache-control": "no-store",
    },
  });
}
