import { AsyncLocalStorage } from "node:async_hooks";

/**
 * Where a call to a chain is: the step it entered last, and when. A call that finds no answer within its
 * bound then says what it was waiting for (a lease, a nonce, a send, a receipt) instead of only that it
 * waited; the step is what an operator needs to tell a slow node from a nonce gap or a busy database.
 */
export type StepTrace = { step?: string; since?: number };

// On globalThis like the request context (lib/http/request-context.ts): a copy of this module in another route
// bundle must still see the same trace.
const store = globalThis as unknown as { __feedbackStepTraces?: AsyncLocalStorage<StepTrace> };
store.__feedbackStepTraces ??= new AsyncLocalStorage<StepTrace>();
const traces = store.__feedbackStepTraces;

/** Runs `run` with `trace` filled in by every step it (and what it awaits) enters. */
export function withSteps<T>(trace: StepTrace, run: () => Promise<T>): Promise<T> {
  return traces.run(trace, run);
}

/** Marks the step the traced call is now in; nothing outside a traced call. */
export function enterStep(step: string): void {
  const trace = traces.getStore();
  if (!trace) return;
  trace.step = step;
  trace.since = Date.now();
}

/** "1.2 s on <step>", or undefined when no step was entered. */
export function describeStep(trace: StepTrace, now = Date.now()): string | undefined {
  if (!trace.step || trace.since === undefined) return undefined;
  return `${((now - trace.since) / 1000).toFixed(1)} s on ${trace.step}`;
}
