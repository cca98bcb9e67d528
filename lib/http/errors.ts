/** Every refusal the service gives, by stable code; the one table that maps a code to an HTTP status. */
export const ERROR_STATUS = {
  "validation-failed": 400,
  "invalid-json": 400,
  "invalid-cursor": 400,
  "ambiguous-payment": 400,
  "payment-required": 402,
  "authentication-required": 402,
  "payment-invalid": 402,
  "settlement-failed": 402,
  "payment-refunded": 402,
  "sign-in-invalid": 401,
  unauthorized: 401,
  "not-owner": 403,
  "role-forbidden": 403,
  forbidden: 403,
  "not-found": 404,
  "namespace-not-found": 404,
  "known-issues-not-found": 404,
  "feedback-not-found": 404,
  "delivery-not-found": 404,
  "namespace-taken": 409,
  "already-resolved": 409,
  "item-held": 409,
  "not-awaiting-info": 409,
  "not-resolved": 409,
  "already-confirmed": 409,
  "reward-already-paid": 409,
  "payment-already-used": 409,
  "payment-in-progress": 409,
  "idempotency-key-reused": 409,
  "no-reward-recipient": 409,
  "webhook-not-configured": 409,
  "delivery-not-resendable": 409,
  "transfer-not-pending": 403,
  "reward-failed": 502,
  "payout-unavailable": 503,
  "method-not-allowed": 405,
  "payload-too-large": 413,
  "rate-limited": 429,
  "unsupported-media-type": 415,
  "reward-not-available": 422,
  "payment-unavailable": 503,
  "payment-pending": 503,
  "jobs-failed": 503,
  "service-unavailable": 503,
  "service-busy": 503,
  internal: 500,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;
export type FieldError = { field: string; message: string };

/** A refusal the client can act on; rendered as RFC 9457 problem+json by the route wrapper. */
export class AppError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    readonly detail: string,
    readonly extra: {
      errors?: FieldError[];
      headers?: Record<string, string>;
      /** A protocol's own problem type URI (e.g. MPP's), instead of this service's. */
      type?: string;
      body?: Record<string, unknown>;
    } = {},
  ) {
    super(detail);
    this.name = "AppError";
    this.status = ERROR_STATUS[code];
  }
}

/** A 400 naming each bad field. */
export function validationError(errors: FieldError[]): AppError {
  const named = errors.map((e) => `${e.field}: ${e.message}`).join("; ");
  return new AppError("validation-failed", `Invalid request: ${named}`, { errors });
}

/** Words every "send this same request again" answer ends with, so a client learns them once. */
export const SEND_AGAIN =
  "It is never charged twice: do not sign a new payment. Send this same request with the same payment again later for its answer.";

/**
 * 503 when the database cannot be reached: nothing is lost and nothing is charged twice, so the same request
 * (with the same payment, if it carried one) is sent again shortly.
 */
export function databaseUnavailable(): AppError {
  return new AppError(
    "service-unavailable",
    `The service's database could not be reached for a moment. If this request carried a payment, it is completed or released once the database is back. ${SEND_AGAIN}`,
    { headers: { "retry-after": "5" } },
  );
}
