import "server-only";
import { type RecoveryOutcome, recoverOnce } from "@/lib/domain/recovery-pass";
import { env } from "@/lib/env";
import { describeError } from "@/lib/http/log";
import { type DeliveryOutcome, deliverOnce } from "@/lib/webhooks/delivery-pass";

const WEBHOOKS_EVERY_MS = 2_000;
// Digests are due once a day; looking once a minute is enough and keeps the query off every tick.
const DIGESTS_EVERY_MS = 60_000;

type Job<T> = (signal: AbortSignal) => Promise<T>;
/** A job's outcome, or "failed" when it threw (the error is logged, never answered). */
type Ran<T> = T | "failed";

async function run<T>(name: string, job: Job<T>, signal: AbortSignal): Promise<Ran<T>> {
  try {
    return await job(signal);
  } catch (error) {
    console.error(`[${name}] pass failed: ${describeError(error)}`);
    return "failed";
  }
}

/** One pass of every background job; `stopped` when the signal ended it early (the rest waits for the next). */
export type JobsReport = { recovery: Ran<RecoveryOutcome>; webhooks: Ran<DeliveryOutcome>; stopped: boolean };

/**
 * One pass of each background job, side by side: reconciliation (paid writes, payouts, grouping) and the
 * webhook outbox (daily digests, then due deliveries). The cron trigger runs this.
 */
export async function runJobsOnce(signal: AbortSignal): Promise<JobsReport> {
  const [recovery, webhooks] = await Promise.all([
    run("recovery", recoverOnce, signal),
    run("webhooks", (s) => deliverOnce({ digests: true, signal: s }), signal),
  ]);
  return { recovery, webhooks, stopped: signal.aborted };
}

/** The loops of one process; `stop` ends them (see startBackgroundWork). */
export type BackgroundWork = { stop(graceMs: number): Promise<"finished" | "abandoned"> };

/**
 * Runs the background jobs in this process: reconciliation now and every RECOVERY_INTERVAL_MS, the
 * webhook outbox every two seconds (digests once a minute). Any number of processes may run them at once.
 * `keepAlive` holds the process open for them (the worker); a web server has its own reason to live.
 */
export function startBackgroundWork(options: { keepAlive: boolean }): BackgroundWork {
  const controller = new AbortController();
  const inFlight = new Set<Promise<unknown>>();
  const timers: NodeJS.Timeout[] = [];
  const every = (ms: number, name: string, job: Job<unknown>, now: boolean) => {
    // One pass of a job at a time per process: a pass against a slow chain may outlast the interval.
    let busy = false;
    const tick = () => {
      if (busy || controller.signal.aborted) return;
      busy = true;
      const pass = run(name, job, controller.signal).finally(() => {
        busy = false;
        inFlight.delete(pass);
      });
      inFlight.add(pass);
    };
    const timer = setInterval(tick, ms);
    if (!options.keepAlive) timer.unref();
    timers.push(timer);
    if (now) tick();
  };
  let digestsAt = 0;
  every(env().RECOVERY_INTERVAL_MS, "recovery", recoverOnce, true);
  every(
    WEBHOOKS_EVERY_MS,
    "webhooks",
    (signal) => {
      const digests = Date.now() - digestsAt >= DIGESTS_EVERY_MS;
      if (digests) digestsAt = Date.now();
      return deliverOnce({ digests, signal });
    },
    false,
  );
  return {
    /**
     * No new pass starts, and the passes running stop before their next row; waits up to `graceMs` for
     * them. Abandoning one is safe (it is what a crash does): every row stays in a state a pass resumes.
     */
    async stop(graceMs) {
      controller.abort();
      for (const timer of timers) clearInterval(timer);
      const finished = Promise.all(inFlight).then(() => "finished" as const);
      const late = new Promise<"abandoned">((resolve) => setTimeout(resolve, graceMs, "abandoned").unref());
      return Promise.race([finished, late]);
    },
  };
}
