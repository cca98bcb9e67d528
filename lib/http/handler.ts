import "server-only";
import { databaseUnreachableCode } from "@/lib/db/errors";
import { AppError, databaseUnavailable } from "./errors";
import { describeError } from "./log";
import { problemResponse } from "./problem";
import { currentRequest, type RequestFacts, requestIdOf, withRequestFacts } from "./request-context";
import { requestLine, requestLogEnabled, writeRequestLine } from "./request-log";
import { API_SECURITY_HEADERS, apiCacheControl } from "./security-headers";
import { ServerTiming } from "./server-timing";
import { recordHttp } from "./service-metrics";

type Handler = (request: Request) => Promise<Response>;

// The timing of each running request, found through its facts; on globalThis like the request context,
// so a route's sign-in marks the timing its wrapper answers with.
const store = globalThis as unknown as { __feedbackRequestTimings?: WeakMap<RequestFacts, ServerTiming> };
store.__feedbackRequestTimings ??= new WeakMap();
const timings = store.__feedbackRequestTimings;

/** Ends a phase of the running request's Server-Timing (e.g. "auth"); nothing outside a route handler. */
export function markPhase(name: string): void {
  const facts = currentRequest();
  if (facts) timings.get(facts)?.mark(name);
}

/**
 * Wraps a route handler: typed refusals become problem+json, a database that cannot be reached a 503 to send
 * again, anything else a logged, opaque 500. Each answer
 * gets `x-request-id`, Server-Timing (unless the route wrote its own: a paid call), a count in the metrics
 * and, with request logs on, one JSON line (`logOk: false` keeps successful probes out of the log).
 */
export function handle(fn: Handler, options: { logOk?: boolean } = {}): Handler {
  return async (request) => {
    const started = performance.now();
    // A route called in process by another (an MCP tool call) keeps the outer request's id.
    const facts: RequestFacts = { requestId: currentRequest()?.requestId ?? requestIdOf(request.headers) };
    const timing = new ServerTiming();
    timings.set(facts, timing);
    let response = await withRequestFacts(facts, () => answer(fn, request, facts.requestId, timing));
    const durationMs = performance.now() - started;
    const { pathname } = new URL(request.url);
    recordHttp(pathname, request.method, response.status, durationMs);
    if ((options.logOk !== false || response.status >= 400) && requestLogEnabled()) {
      writeRequestLine(requestLine(request, facts, response.status, durationMs));
    }
    if (!response.headers.has("server-timing")) {
      response = withHeader(response, "server-timing", timing.header());
    }
    return withHeader(response, "x-request-id", facts.requestId);
  };
}

async function answer(fn: Handler, request: Request, requestId: string, timing: ServerTiming) {
  try {
    const response = await fn(request);
    // After a sign-in, what is left of a free route is its verb: the queries and the answer's shape.
    if (timing.has("auth")) timing.mark("db");
    return response;
  } catch (error) {
    const path = new URL(request.url).pathname;
    if (error instanceof AppError) return problemResponse(error, path);
    const unreachable = databaseUnreachableCode(error);
    if (unreachable) {
      console.error(`[${request.method} ${path} ${requestId}] database unreachable (${unreachable})`);
      return problemResponse(databaseUnavailable(), path);
    }
    // One redacted line: errors from chain clients can embed signed payloads.
    console.error(`[${request.method} ${path} ${requestId}] unexpected error: ${describeError(error)}`);
    return problemResponse(
      new AppError(
        "internal",
        "Something went wrong on our side. Retrying with the same payment is safe: it is never charged twice.",
      ),
      path,
    );
  }
}

/** Sets a header, copying the response first when its headers are immutable (e.g. a fetched one). */
function withHeader(response: Response, name: string, value: string): Response {
  try {
    response.headers.set(name, value);
    return response;
  } catch {
    const copy = new Response(response.body, response);
    copy.headers.set(name, value);
    return copy;
  }
}

/** A JSON success response that no cache keeps. */
export function json(
  body: unknown,
  init: { status?: number; headers?: Record<string, string> } = {},
): Response {
  const text = JSON.stringify(body);
  return new Response(text, {
    status: init.status ?? 200,
    headers: {
      ...API_SECURITY_HEADERS,
      "content-type": "application/json",
      "cache-control": apiCacheControl(text),
      ...init.headers,
    },
  });
}

/**
 * A streamed download (an export): no cache keeps it, and the name is given both as plain ASCII and,
 * for any other character, RFC 5987-encoded.
 */
export function download(body: ReadableStream<Uint8Array>, contentType: string, filename: string): Response {
  const ascii = filename.replace(/[^\w.-]/g, "_");
  return new Response(body, {
    headers: {
      ...API_SECURITY_HEADERS,
      "content-type": contentType,
      "content-disposition": `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`,
      "cache-control": "no-store",
    },
  });
}
