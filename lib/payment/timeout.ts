import { describeStep, type StepTrace, withSteps } from "@/lib/chain/steps";

/** Raised when a facilitator or RPC call takes longer than its bound. */
export class TimeoutError extends Error {
  constructor(label: string, ms: number, where?: string) {
    super(`${label} did not answer within ${ms} ms${where ? `, waiting ${where}` : ""}`);
    this.name = "TimeoutError";
  }
}

/** Races a promise against a timer so no payment call can hang a request forever. */
export async function withTimeout<T>(
  promise: Promise<T>,
  ms: number,
  label: string,
  trace?: StepTrace,
): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      promise,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new TimeoutError(label, ms, trace && describeStep(trace))), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * withTimeout over a call whose steps are traced (lib/chain/steps.ts): on timeout the error names the step
 * the call was in and for how long ("x402 settle did not answer within 20000 ms, waiting 16.8 s on the
 * receipt of nonce 93, 0x…").
 */
export function withTracedTimeout<T>(run: () => Promise<T>, ms: number, label: string): Promise<T> {
  const trace: StepTrace = {};
  return withTimeout(withSteps(trace, run), ms, label, trace);
}
