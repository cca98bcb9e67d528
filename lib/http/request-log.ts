import { env, type ServerEnv } from "@/lib/env";
import type { RequestFacts } from "./request-context";

/** One request's log line: only these fields, so no header, query string or body can reach the log. */
export type RequestLine = {
  level: "info";
  msg: "request";
  requestId: string;
  method: string;
  /** The path alone: query strings carry cursors and filters, never logged. */
  route: string;
  status: number;
  durationMs: number;
  protocol?: string;
  paymentId?: string;
};

/** Builds the line from the request's facts, picking each field by name (nothing else passes). */
export function requestLine(
  request: { method: string; url: string },
  facts: RequestFacts,
  status: number,
  durationMs: number,
): RequestLine {
  return {
    level: "info",
    msg: "request",
    requestId: facts.requestId,
    method: request.method,
    route: new URL(request.url).pathname,
    status,
    durationMs: Math.round(durationMs * 10) / 10,
    ...(facts.protocol ? { protocol: facts.protocol } : {}),
    ...(facts.paymentId ? { paymentId: facts.paymentId } : {}),
  };
}

/** LOG_REQUESTS when set; otherwise on in production only (development has Next's own lines, tests stay quiet). */
export function requestLogEnabled(e: Pick<ServerEnv, "LOG_REQUESTS" | "NODE_ENV"> = env()): boolean {
  return e.LOG_REQUESTS ?? e.NODE_ENV === "production";
}

/** Writes the line to stdout as one JSON object. */
export function writeRequestLine(line: RequestLine): void {
  process.stdout.write(`${JSON.stringify(line)}\n`);
}
