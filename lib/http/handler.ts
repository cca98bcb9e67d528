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
