import { handle } from "@/lib/http/handler";
import { metricsResponse } from "@/lib/ops/metrics";

export const dynamic = "force-dynamic";

/** Prometheus scrape, behind `Authorization: Bearer <METRICS_TOKEN>`; 404 when no token is configured. */
export const GET = handle(metricsResponse, { logOk: false });
