import "server-only";
import { env } from "@/lib/env";
import { requireBearer } from "@/lib/http/bearer";
import { AppError } from "@/lib/http/errors";
import { json } from "@/lib/http/handler";
import { runJobsOnce } from "./background-work";

/**
 * A pass stops taking new rows after this long, so one triggered every minute has usually ended before
 * the next; the rows in hand finish (each chain call is bounded by X402_TIMEOUT_MS). Passes that overlap
 * are safe: the database keeps them apart.
 */
const CRON_PASS_BUDGET_MS = 45_000;

/**
 * The cron trigger: with `Authorization: Bearer <CRON_SECRET>`, one pass of every background job, and
 * what it did. 404 when CRON_SECRET is unset; 401 without the secret; 503 when a job failed (logged).
 */
export async function cronResponse(request: Request): Promise<Response> {
  requireBearer(request, env().CRON_SECRET, "cron");
  const report = await runJobsOnce(AbortSignal.timeout(CRON_PASS_BUDGET_MS));
  const failed = Object.entries(report)
    .filter(([, outcome]) => outcome === "failed")
    .map(([job]) => job);
  if (failed.length > 0) {
    throw new AppError("jobs-failed", `These jobs failed: ${failed.join(", ")}. The server log says why.`, {
      body: { jobs: report },
    });
  }
  return json(report);
}
