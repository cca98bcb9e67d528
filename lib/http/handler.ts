import "server-only";
import { AppError } from "./errors";
import { describeError } from "./log";
import { problemResponse } from "./problem";
import { currentRequest, requestIdOf, withRequestFacts } from "./request-context";
import { requestLine, requestLogEnabled, writeRequestLine } from "./request-log";
import { API_SECURITY_HEADERS, apiCacheControl } from "./security-headers";
import { recordHttp } from "./service-metrics";

type Handler = (request: Request) => Promise<Response>;

/**
 * Wraps a route handler: typed refusals become problem+json; anything else is a logged, opaque 500.
 * Every answer carries `x-request-id`, is counted in the metrics and, when request logs are on, gets
 * one JSON line (`logOk: false` keeps successful probes out of the log).
 */
export function handle(fn: Handler, options: { logOk?: boolean } = {}): Handler {
  return async (request) => {
    const started = performance.now();
    // A route called in process by another (an MCP tool call) keeps the outer request's id.
    const facts = { requestId: currentRequest()?.requestId ?? requestIdOf(request.headers) };
    const response = await withRequestFacts(facts, () => answer(fn, request, facts.requestId));
    const durationMs = performance.now() - started;
    const { pathname } = new URL(request.url);
    recordHttp(pathname, request.method, response.status, durationMs);
    if ((options.logOk !== false || response.status >= 400) && requestLogEnabled()) {
      writeRequestLine(requestLine(request, facts, response.status, durationMs));
    }
    return withHeader(response, "x-request-id", facts.requestId);
  };
}

async function answer(fn: Handler, request: Request, requestId: string): Promise<Response> {
  try {
    return await fn(request);
  } catch (error) {
    const path = new URL(request.url).pathname;
    if (error instanceof AppError) return problemResponse(error, path);
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
