import "server-only";
import { type ELDHistogram, monitorEventLoopDelay } from "node:perf_hooks";
import { env } from "@/lib/env";
import { AppError } from "./errors";

/**
 * Load shedding: past what this process's CPU can serve, a new paid call is refused at once with a 503 and
 * Retry-After, before any payment is read, claimed or taken, instead of joining a queue it would wait in for
 * tens of seconds, or lose its connection in. A paid call already past this point runs to its end.
 *
 * The signal is the event loop's lag: how late a 10 ms timer fires. Waiting for blocks, the database or a
 * facilitator costs no lag, however many payments wait; only more work than the CPU does raises it. Each half
 * second the median of the lags since the last reading is taken, and the process sheds while the last two
 * readings both exceed the limit: a loop late on most of its ticks for a second. One long pause (a
 * collection, a module loaded) fills at most one reading, so it sheds nothing. Loaded past the limit, each 503
 * costs the process a small part of what an answered call does, so the calls it admits keep a bounded latency
 * (docs/benchmarks.md, load shedding).
 */
const DEFAULT_SHED_LOOP_DELAY_MS = 75;
const RESOLUTION_MS = 10;
const WINDOW_MS = 500;

/** `lagMs`: the lesser of the last two readings, each the median lag of its half second. */
type Shedder = { monitor: ELDHistogram; timer: NodeJS.Timeout; lastMs: number; lagMs: number };
// On globalThis: one monitor per process, whichever bundle of the app reads it.
const store = globalThis as unknown as { __feedbackShedder?: Shedder };

/** The event loop's lag held over the last second (see above), in ms; starts the monitor on the first call. */
export function loopLagMs(): number {
  return shedder().lagMs;
}

function shedder(): Shedder {
  if (store.__feedbackShedder) return store.__feedbackShedder;
  const monitor = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
  monitor.enable();
  const state: Shedder = { monitor, lastMs: 0, lagMs: 0, timer: setInterval(() => read(state), WINDOW_MS) };
  state.timer.unref();
  store.__feedbackShedder = state;
  return state;
}

function read(state: Shedder) {
  const { monitor } = state;
  // Each sample is the time between two ticks of the RESOLUTION_MS timer: the lag is what exceeds it.
  const median = monitor.count > 0 ? Math.max(0, monitor.percentile(50) / 1e6 - RESOLUTION_MS) : 0;
  monitor.reset();
  state.lagMs = Math.min(median, state.lastMs);
  state.lastMs = median;
}

/** The lag past which paid calls are shed, in ms; 0: never (unset under `next dev`, whose compiles hold the loop). */
export function shedLimitMs(): number {
  const { SHED_LOOP_DELAY_MS, NODE_ENV } = env();
  return SHED_LOOP_DELAY_MS ?? (NODE_ENV === "development" ? 0 : DEFAULT_SHED_LOOP_DELAY_MS);
}

/**
 * Refuses a new paid call while the event loop lags more than the limit: a 503 `service-busy` with
 * Retry-After, nothing read or charged, the payment it carried (if any) unspent.
 */
export function refuseWhenBusy(): void {
  const limit = shedLimitMs();
  if (limit === 0) return;
  const lag = loopLagMs();
  if (lag <= limit) return;
  // One to four seconds, spread so the refused calls do not all come back on the same tick.
  const retryAfter = 1 + Math.floor(Math.random() * 4);
  throw new AppError(
    "service-busy",
    "The service is busy: this call was refused before its payment was read, and nothing was charged. Send the same request again (with the same payment, if it carried one) after Retry-After seconds.",
    { headers: { "retry-after": String(retryAfter) } },
  );
}
