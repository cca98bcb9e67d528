import { AsyncLocalStorage } from "node:async_hooks";

/** What one request's log line says about it beyond method, path and status; filled in as it runs. */
export type RequestFacts = { requestId: string; protocol?: string; paymentId?: string };

/** A client's own id is kept only when it cannot break a log line or a header: ≤ 128 of [A-Za-z0-9._-]. */
const SAFE_REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/;

/** The request's `x-request-id` when it is a safe token, else a new random one. */
export function requestIdOf(headers: Headers): string {
  const given = headers.get("x-request-id");
  return given !== null && SAFE_REQUEST_ID.test(given) ? given : crypto.randomUUID();
}

// On globalThis like the metrics registry: the route wrapper and the paid flow may sit in different
// route bundles' copies of this module, and must still see one context.
const store = globalThis as unknown as { __feedbackRequestContext?: AsyncLocalStorage<RequestFacts> };
store.__feedbackRequestContext ??= new AsyncLocalStorage<RequestFacts>();
const context = store.__feedbackRequestContext;

/** Runs a request's handler with its facts in context. */
export function withRequestFacts<T>(facts: RequestFacts, run: () => Promise<T>): Promise<T> {
  return context.run(facts, run);
}

/** The facts of the request running now (undefined outside a route handler). */
export function currentRequest(): RequestFacts | undefined {
  return context.getStore();
}

/** Adds what the paid flow learned (its protocol, its payment id) to the running request's log line. */
export function noteRequest(facts: { protocol?: string; paymentId?: string }): void {
  const current = context.getStore();
  if (current) Object.assign(current, facts);
}
