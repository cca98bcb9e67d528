import {
  BaseError,
  HttpRequestError,
  LimitExceededRpcError,
  SocketClosedError,
  TimeoutError,
  WebSocketRequestError,
} from "viem";

/** JSON-RPC error codes that say "ask again later", not "no": rate limits and a node's internal trouble. */
const TRANSIENT_RPC_CODES = new Set([-32005, -32603, 429]);

/**
 * Whether a chain call failed because the chain could not be asked (a timeout, a lost or refused connection,
 * a 429 or 5xx): its answer is unknown and it may be retried. Anything else (a revert, a refused transaction)
 * is the chain's own answer, which asking again will not change.
 */
export function isChainUnreachable(error: unknown): boolean {
  if (!(error instanceof BaseError)) {
    // Not from viem: fetch's own failures (ECONNREFUSED, a reset) and our timeouts.
    return true;
  }
  let unreachable = false;
  error.walk((cause) => {
    if (
      cause instanceof HttpRequestError ||
      cause instanceof TimeoutError ||
      cause instanceof SocketClosedError ||
      cause instanceof WebSocketRequestError ||
      cause instanceof LimitExceededRpcError ||
      (cause instanceof BaseError && TRANSIENT_RPC_CODES.has((cause as { code?: number }).code ?? 0))
    ) {
      unreachable = true;
    }
    return false;
  });
  return unreachable;
}

/** The chain's reason for refusing, short enough for an answer and free of calldata. */
export function refusalReason(error: unknown): string {
  const e = error as { shortMessage?: string; details?: string; message?: string };
  const text = [e.details, e.shortMessage, e.message].find((t) => typeof t === "string" && t.length > 0);
  return (text ?? "refused by the chain")
    .replace(/0x[0-9a-fA-F]{66,}/g, "0x…")
    .split("\n")[0]!
    .slice(0, 200);
}

/**
 * Why a chain could not be asked, in words that cannot carry its URL (viem's messages name it): `late` for a
 * timeout, the HTTP status, the JSON-RPC code, or "unreachable".
 */
export function unreachableWords(error: unknown, late: string): string {
  if (!(error instanceof BaseError)) return "unreachable";
  let reason = "failed";
  error.walk((cause) => {
    if (cause instanceof TimeoutError) reason = late;
    else if (cause instanceof HttpRequestError)
      reason = cause.status ? `HTTP ${cause.status}` : "unreachable";
    else if (typeof (cause as { code?: unknown }).code === "number") {
      reason = `RPC error ${(cause as { code: number }).code}`;
    }
    return false;
  });
  return reason;
}
