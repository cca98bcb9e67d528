import { AppError } from "./errors";
import { counter, histogram, routeLabel } from "./metrics";

const httpRequests = () =>
  counter<"route" | "method" | "status">(
    "feedback_http_requests_total",
    "HTTP requests answered by the route handlers, by route, method and status class (2xx, 4xx, 5xx).",
  );
const httpDuration = () =>
  histogram<"route">(
    "feedback_http_request_duration_seconds",
    "Time from a request reaching its route handler to the response head, by route.",
  );
const paidRequests = () =>
  counter<"operation" | "protocol" | "outcome">(
    "feedback_paid_requests_total",
    "Paid calls by operation, protocol (x402, mpp, none) and outcome (see docs/operations.md, Metrics).",
  );
const paidPhases = () =>
  histogram<"operation" | "protocol" | "phase">(
    "feedback_paid_phase_duration_seconds",
    "Phases of paid calls carrying a credential, as Server-Timing names them (verify, claim, settle, store, finish, total).",
  );

/** Counts one answered request and its latency. */
export function recordHttp(pathname: string, method: string, status: number, durationMs: number): void {
  const route = routeLabel(pathname);
  httpRequests().inc({ route, method, status: `${Math.floor(status / 100)}xx` });
  httpDuration().observe({ route }, durationMs / 1000);
}

/**
 * How a paid call ended. ok: stored now; replayed: answered from the ledger, not charged again;
 * challenged: asked without a credential (the 402); refused: a 4xx before any charge; unavailable: a
 * network could not be asked, nothing charged; busy: refused unread, the process past its CPU (503
 * service-busy); failed: settled nothing or refunded; pending: the money
 * may have moved and reconciliation finishes it; error: an unexpected failure.
 */
export type PaidOutcome =
  | "ok"
  | "replayed"
  | "challenged"
  | "refused"
  | "unavailable"
  | "busy"
  | "failed"
  | "pending"
  | "error";

const OUTCOME_OF_CODE: Partial<Record<string, PaidOutcome>> = {
  "payment-required": "challenged",
  "payment-pending": "pending",
  "payment-unavailable": "unavailable",
  "payout-unavailable": "unavailable",
  "service-busy": "busy",
  "settlement-failed": "failed",
  "payment-refunded": "failed",
  "reward-failed": "failed",
};

/** The outcome of a paid call from its answer (and whether it stored now) or from what it threw. */
export function paidOutcome(result: { stored: boolean } | { error: unknown }): PaidOutcome {
  if ("stored" in result) return result.stored ? "ok" : "replayed";
  const { error } = result;
  if (!(error instanceof AppError)) return "error";
  return OUTCOME_OF_CODE[error.code] ?? (error.status < 500 ? "refused" : "error");
}

/** Counts a paid call and, when it carried a credential, the phases it went through. */
export function recordPaid(
  call: { operation: string; protocol: string | null; outcome: PaidOutcome },
  phases: readonly [name: string, ms: number][],
): void {
  const protocol = call.protocol ?? "none";
  paidRequests().inc({ operation: call.operation, protocol, outcome: call.outcome });
  if (!call.protocol) return;
  for (const [phase, ms] of phases) {
    paidPhases().observe({ operation: call.operation, protocol, phase }, ms / 1000);
  }
}
