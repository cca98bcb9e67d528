import "server-only";
import { AppError } from "./errors";
import { describeError } from "./log";
import { problemResponse } from "./problem";
import { API_SECURITY_HEADERS, apiCacheControl } from "./security-headers";

type Handler = (request: Request) => Promise<Response>;

/** Wraps a route handler: typed refusals become problem+json; anything else is a logged, opaque 500. */
export function handle(fn: Handler): Handler {
  return async (request) => {
    try {
      return await fn(request);
    } catch (error) {
      const path = new URL(request.url).pathname;
      if (error instanceof AppError) return problemResponse(error, path);
      // One redacted line: errors from chain clients can embed signed payloads.
      console.error(`[${request.method} ${path}] unexpected error: ${describeError(error)}`);
      return problemResponse(
        new AppError(
          "internal",
          "Something went wrong on our side. Retrying with the same payment is safe: it is never charged twice.",
        ),
        path,
      );
    }
  };
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
