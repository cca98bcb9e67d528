import "server-only";
import { AppError, SEND_AGAIN } from "@/lib/http/errors";
import { json } from "@/lib/http/handler";
import { describeError } from "@/lib/http/log";
import { noteRequest } from "@/lib/http/request-context";
import type { PaymentRow } from "./ledger";
import type { PaymentProtocol } from "./types";

/**
 * The answer to a credential the ledger has seen: 409 if claimed for another request (no state of that
 * claim buys this one); the first answer again once stored (finish re-run, no new charge); 503 while
 * open; 402 once failed or refunded, since none of this credential's money stayed with us.
 */
export async function answerSeen<TBody>(
  row: PaymentRow,
  context: {
    requestHash: string;
    operation: string;
    resourceUrl: string;
    protocol: PaymentProtocol;
    finish?: (stored: { resultId: string; body: TBody }) => Promise<TBody>;
  },
): Promise<Response> {
  const paymentId = row.id;
  noteRequest({ paymentId });
  if (row.requestHash !== context.requestHash || row.operation !== context.operation) {
    throw new AppError(
      "payment-already-used",
      `This payment (${paymentId}) ${row.status === "fulfilled" ? "already paid" : "was already claimed"} for another request, and was not charged again. Sign a new payment for this one.`,
      {
        type: context.protocol.replayProblemType,
        body: { paymentId, ...(row.resultId ? { resultId: row.resultId } : {}) },
      },
    );
  }
  if (row.status === "fulfilled" && row.txRef && row.resultId) {
    let body = (row.response ?? {}) as TBody;
    if (context.finish) {
      body = await context.finish({ resultId: row.resultId, body }).catch((error: unknown) => {
        throw withPaymentId(error, paymentId);
      });
    }
    const paid = { ...row, txRef: row.txRef };
    const delivered = await deliveredHeaders(context.protocol, paymentId, paid, {
      resourceUrl: context.resourceUrl,
      claimedAt: row.createdAt,
      operation: row.operation,
      resultId: row.resultId,
      body: row.response,
    });
    return json(body, { headers: { ...context.protocol.receiptHeaders(paid), ...delivered } });
  }
  if (row.status === "claimed" || row.status === "settled") {
    throw pending(paymentId, "This payment is already being processed");
  }
  if (row.status === "refunded") {
    throw new AppError(
      "payment-refunded",
      `This payment (${paymentId}) was refunded in transaction ${row.refundTxRef}: ${row.error ?? "its write could not be completed"}. Sign a new payment to try again.`,
      { body: { paymentId, refundTxHash: row.refundTxRef } },
    );
  }
  throw new AppError(
    "settlement-failed",
    `This payment (${paymentId}) was not settled, and you were not charged: ${row.error ?? "it failed"}. Sign a new payment to try again.`,
    { body: { paymentId } },
  );
}

/**
 * The headers of a delivered answer (x402's signed receipt), or none when they cannot be made: the receipt is
 * evidence beside a stored, charged answer, never a reason to withhold it. One line is logged, redacted.
 */
export async function deliveredHeaders(
  protocol: PaymentProtocol,
  paymentId: string,
  ...delivery: Parameters<NonNullable<PaymentProtocol["deliveredHeaders"]>>
): Promise<Record<string, string>> {
  try {
    return (await protocol.deliveredHeaders?.(...delivery)) ?? {};
  } catch (error) {
    // describeError cuts long runs only; a JWS signature (86 characters) is shorter, so cut any token here.
    const reason = describeError(error).replace(/[A-Za-z0-9+/=_-]{40,}/g, "…");
    console.error(`[payment ${paymentId}] answered without its signed receipt, which failed: ${reason}`);
    return {};
  }
}

/** 503 for a payment whose money may have moved: never charged twice, and never to be signed again. */
export function pending(paymentId: string, what: string): AppError {
  return new AppError(
    "payment-pending",
    `${what}. It is reconciled from the chain and completed automatically. ${SEND_AGAIN}`,
    { headers: { "retry-after": "30" }, body: { paymentId } },
  );
}

/** An answer given after the money moved names the payment it is about. */
export function withPaymentId(error: unknown, paymentId: string): unknown {
  if (!(error instanceof AppError)) {
    console.error(`[payment ${paymentId}] finishing the paid write failed: ${describeError(error)}`);
    return pending(paymentId, "Your payment settled and the write is stored; finishing it failed for now");
  }
  return new AppError(error.code, error.detail, {
    ...error.extra,
    body: { ...error.extra.body, paymentId },
  });
}

/** 503 before any claim: the payment network could not be asked, and nothing was charged. */
export function unavailable(): AppError {
  return new AppError(
    "payment-unavailable",
    "The payment network could not be reached; nothing was charged. Retry shortly.",
    { headers: { "retry-after": "5" } },
  );
}
