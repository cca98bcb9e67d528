import "server-only";
import { type DbOrTx, getDb } from "@/lib/db/client";
import { docsLinks } from "@/lib/http/docs";
import { AppError } from "@/lib/http/errors";
import { json } from "@/lib/http/handler";
import { describeError } from "@/lib/http/log";
import { ServerTiming } from "@/lib/http/server-timing";
import { type ClaimOutcome, claimPayment, markFailed, markSettled, releaseClaim } from "./ledger";
import { mppProtocol } from "./mpp";
import { formatUsd } from "./prices";
import {
  type Charge,
  CredentialRefused,
  type PaidContext,
  type PaymentProtocol,
  SettlementError,
  type VerifiedPayment,
} from "./types";
import { x402Protocol } from "./x402";

/** Every protocol a paid call accepts, side by side; a second one plugs in here without touching routes. */
export const PROTOCOLS: readonly PaymentProtocol[] = [x402Protocol, mppProtocol];

/** True when the request carries any protocol's payment credential (the paid retry, not the first ask). */
export function hasPaymentCredential(request: Request): boolean {
  return PROTOCOLS.some((p) => p.hasCredential(request));
}

/** A paid write: what it costs, what it reserves, and how it is stored once the money has moved. */
export type PaidWrite<TBody> = {
  charge: Charge;
  /** A business resource only one payment may buy at a time (a namespace name, an item's reward). */
  lockKey?: string;
  /** The refusal to give when another payment holds the lock. */
  lockedError?: () => AppError;
  /** The validated input, kept in the ledger so a settled write can be finished after a crash. */
  input: Record<string, unknown>;
  /** A check that needs the verified payer (e.g. "the payer owns this namespace"); refuses uncharged. */
  authorize?: (payment: VerifiedPayment) => Promise<void>;
  /** Takes a business resource in the claim's transaction; throws to refuse before any charge. */
  reserve?: (tx: DbOrTx, paymentId: string) => Promise<void>;
  /** Gives the resource back when settlement fails. */
  release?: (db: DbOrTx, paymentId: string) => Promise<void>;
  commit: (ctx: PaidContext) => Promise<{ resultId: string; body: TBody }>;
  /** Work after the write is stored (paying a reward out); its answer replaces the committed body. */
  finish?: (committed: { resultId: string; body: TBody }, ctx: PaidContext) => Promise<TBody>;
};

/** The 402 a paid call answers without a credential: every protocol's challenge at once. */
export async function paymentRequired(charge: Charge): Promise<AppError> {
  const challenges = await Promise.all(PROTOCOLS.map((p) => p.challenge(charge)));
  const price = formatUsd(charge.amountMicroUsd);
  return new AppError(
    "payment-required",
    `${charge.description} costs ${price} USD. Pay with ${PROTOCOLS.map((p) => p.name).join(" or ")} and retry the same request.`,
    {
      headers: Object.assign({}, ...challenges.map((c) => c.headers)),
      body: {
        price: { amount: price, currency: "USD" },
        protocols: PROTOCOLS.map((p) => p.name),
        docs: docsLinks(),
        ...Object.assign({}, ...challenges.map((c) => c.body)),
      },
    },
  );
}

/**
 * Runs a paid write in the one safe order: claim the credential (and the resource) in the database,
 * with the credential verified before anything is sent → settle → store the write and mark the ledger
 * fulfilled atomically. Every business check must already have passed; a refused claim or credential
 * is answered before anyone is charged.
 * Server-Timing reports the call as consecutive slices, named by the step that ended each.
 */
export async function runPaid<TBody>(request: Request, write: PaidWrite<TBody>): Promise<Response> {
  const timing = new ServerTiming();
  const offered = PROTOCOLS.filter((p) => p.hasCredential(request));
  if (offered.length > 1) {
    throw new AppError(
      "ambiguous-payment",
      "The request carries credentials for more than one payment protocol; send one.",
    );
  }
  // Open the database before any credential exists: an MPP payer signs a transaction that expires
  // about 25 s later, so nothing slow may stand between verifying it and broadcasting it.
  const db = await getDb();
  const protocol = offered[0];
  if (!protocol) throw await paymentRequired(write.charge);

  const claimInput = {
    operation: write.charge.operation,
    lockKey: write.lockKey ?? null,
    request: write.input,
    reserve: write.reserve,
  };
  const refuseClaim = (claim: Exclude<ClaimOutcome, { ok: true }>) =>
    claim.reason === "replayed"
      ? new AppError(
          "payment-already-used",
          "This payment credential was already used; sign a new payment.",
          {
            type: protocol.replayProblemType,
          },
        )
      : (write.lockedError?.() ??
        new AppError("payment-in-progress", "Another payment for this resource is in progress."));

  let payment: VerifiedPayment;
  let paymentId: string;
  // A write that takes no business resource and needs nothing from a verified payer goes from the
  // claim straight to settlement when the protocol's settlement verifies the credential itself before
  // sending anything (x402): one facilitator call instead of two, and a replay is refused at once. A
  // claim whose credential settlement then refuses is released below: it was never spent. Every other
  // write has the credential verified first and claims it once verified.
  const direct = !write.lockKey && !write.reserve && !write.authorize && protocol.settlePeeked;
  const peeked = direct ? await protocol.peek?.(request, write.charge) : null;
  const settlePeeked = peeked ? protocol.settlePeeked?.bind(protocol) : undefined;
  if (peeked && settlePeeked) {
    const claim = await claimPayment(db, { payment: peeked, ...claimInput });
    if (!claim.ok) throw refuseClaim(claim);
    timing.mark("claim");
    paymentId = claim.paymentId;
    payment = { ...peeked, settle: () => settlePeeked(request, write.charge) };
  } else {
    payment = await verifyCredential(protocol, request, write.charge);
    await write.authorize?.(payment);
    timing.mark("verify");
    const claim = await claimPayment(db, { payment, ...claimInput });
    if (!claim.ok) throw refuseClaim(claim);
    timing.mark("claim");
    paymentId = claim.paymentId;
  }

  let settlement: Awaited<ReturnType<typeof payment.settle>>;
  try {
    settlement = await payment.settle();
  } catch (error) {
    if (error instanceof CredentialRefused && settlePeeked) {
      await releaseClaim(db, paymentId).catch((e: unknown) => {
        console.error(`[payment ${paymentId}] releasing a refused claim failed: ${describeError(e)}`);
      });
      throw new AppError("payment-invalid", `The payment was refused: ${error.message}.`);
    }
    if (error instanceof SettlementError) {
      await markFailed(db, paymentId, error.message);
      await write.release?.(db, paymentId);
      throw new AppError(
        "settlement-failed",
        `The payment could not be settled, and you were not charged: ${error.message}`,
      );
    }
    // The outcome is unknown (a timeout, a lost connection): the claimed row is reconciled later.
    console.error(`[payment ${paymentId}] settlement outcome unknown: ${describeError(error)}`);
    throw new AppError(
      "payment-unavailable",
      "The payment network did not confirm in time. The payment will be reconciled and never charged twice; do not re-sign it.",
      { headers: { "retry-after": "30" }, body: { paymentId } },
    );
  }
  timing.mark("settle");
  const ctx = {
    db,
    paymentId,
    txRef: settlement.txRef,
    payer: payment.payer,
    protocol: payment.protocol,
  };
  const committed = await commitPaid(write.commit, ctx);
  timing.mark("store");
  let body = committed.body;
  if (write.finish) {
    body = await write.finish(committed, ctx);
    timing.mark("finish");
  }
  return json(body, { headers: { ...settlement.headers, "server-timing": timing.header() } });
}

/** The protocol's verification; a failure that is not a refusal means the network could not be asked. */
function verifyCredential(
  protocol: PaymentProtocol,
  request: Request,
  charge: Charge,
): Promise<VerifiedPayment> {
  return protocol.verify(request, charge).catch((error: unknown) => {
    if (error instanceof AppError) throw error;
    console.error(`[payment] ${protocol.name} verification unavailable: ${describeError(error)}`);
    throw new AppError(
      "payment-unavailable",
      "The payment network could not be reached; nothing was charged. Retry shortly.",
      { headers: { "retry-after": "5" } },
    );
  });
}

/**
 * Stores a settled write, which fulfils its ledger row atomically with it (see PaidContext); also used
 * by recovery. On the live path the settlement is recorded by that same fulfilment, so a paid call
 * spends no extra round trip on it; only when storing fails is it written alone, so recovery can finish
 * the write from the ledger instead of searching the chain for it.
 */
export async function commitPaid<TBody>(
  commit: PaidWrite<TBody>["commit"],
  ctx: PaidContext,
): Promise<{ resultId: string; body: TBody }> {
  try {
    return await commit(ctx);
  } catch (error) {
    if (ctx.txRef) {
      await markSettled(ctx.db, ctx.paymentId, ctx.txRef).catch((e: unknown) => {
        console.error(`[payment ${ctx.paymentId}] recording the settlement failed: ${describeError(e)}`);
      });
    }
    throw error;
  }
}
