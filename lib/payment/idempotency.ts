import "server-only";
import type { DbOrTx } from "@/lib/db/client";
import { AppError, validationError } from "@/lib/http/errors";
import { findByIdempotencyKey, type PaymentRow } from "./ledger";

/** The client's Idempotency-Key, quoted or bare; null without one, a 400 naming it when it is malformed. */
export function idempotencyKeyOf(request: Request): string | null {
  const raw = request.headers.get("idempotency-key");
  if (raw === null) return null;
  const key = raw.trim().replace(/^"(.*)"$/, "$1");
  if (!/^[\x21-\x7e]{1,255}$/.test(key)) {
    throw validationError([
      { field: "Idempotency-Key", message: "must be 1 to 255 visible ASCII characters, e.g. a UUID" },
    ]);
  }
  return key;
}

/**
 * The one idempotency key of a paid request: its Idempotency-Key header, or the key its credential carries
 * (x402's `payment-identifier`), which are one key. Both present must agree, or it is a 400 naming them,
 * before anything is charged.
 */
export function agreedIdempotencyKey(header: string | null, credential: string | null | undefined) {
  if (!credential) return header;
  if (header !== null && header !== credential) {
    throw validationError([
      {
        field: "Idempotency-Key",
        message:
          "differs from the payment's payment-identifier; they are one key, so send one, or the same value in both",
      },
    ]);
  }
  return credential;
}

/** The earlier payment this payer made for the operation under the request's Idempotency-Key, if any. */
export function underSameKey(db: DbOrTx, key: string | null, scope: { operation: string; payer: string }) {
  return key ? findByIdempotencyKey(db, { ...scope, key }) : Promise.resolve(undefined);
}

/** A retry under an Idempotency-Key: the same body gets the first payment's answer, another is a 409. */
export function answerRetry(
  row: PaymentRow,
  requestHash: string,
  seen: (row: PaymentRow) => Promise<Response>,
) {
  if (row.requestHash !== requestHash) {
    throw new AppError(
      "idempotency-key-reused",
      `This Idempotency-Key was already used for another request (payment ${row.id}); nothing was charged for this one. Use a new key for a new request.`,
      { body: { paymentId: row.id } },
    );
  }
  return seen(row);
}
