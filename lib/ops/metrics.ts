import "server-only";
import { env } from "@/lib/env";
import { requireBearer } from "@/lib/http/bearer";
import { registeredFamilies } from "@/lib/http/metrics";
import { EXPOSITION_CONTENT_TYPE, type MetricFamily, renderExposition } from "@/lib/http/prometheus";
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
