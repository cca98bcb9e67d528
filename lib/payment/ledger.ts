import "server-only";
import { randomBytes } from "node:crypto";
import { and, eq, inArray, sql } from "drizzle-orm";
import type { DbOrTx } from "@/lib/db/client";
import { type Bound, jsonb, param, prepared } from "@/lib/db/prepared";
import { payments } from "@/lib/db/schema";
import type { PeekedPayment } from "./types";

export type ClaimOutcome = { ok: true; paymentId: string } | { ok: false; reason: "replayed" | "locked" };

/**
 * Claims a verified credential before any money moves. The unique payment key refuses a replayed or
 * concurrent duplicate credential; the unique lock key refuses a second payment for a resource that
 * another payment is already buying. Both are enforced by the database, across processes.
 */
export async function claimPayment(
  db: DbOrTx,
  input: {
    payment: PeekedPayment;
    operation: string;
    lockKey: string | null;
    request: Record<string, unknown>;
    /** Takes the business resource in the same transaction; throws (and claims nothing) when it cannot. */
    reserve?: (tx: DbOrTx, paymentId: string) => Promise<void>;
  },
): Promise<ClaimOutcome> {
  const id = `pay_${randomBytes(12).toString("base64url")}`;
  const { payment } = input;
  const { reserve } = input;
  // One INSERT is atomic on its own; a reservation joins it in a transaction so both happen or neither.
  const claimed = reserve
    ? await db.transaction(async (tx) => {
        const inserted = await insertClaim(tx, id, input);
        if (inserted) await reserve(tx, id);
        return inserted;
      })
    : await insertClaim(db, id, input);
  if (claimed) return { ok: true, paymentId: id };
  const [existing] = await db
    .select({ id: payments.id })
    .from(payments)
    .where(eq(payments.paymentKey, payment.paymentKey))
    .limit(1);
  return { ok: false, reason: existing ? "replayed" : "locked" };
}

const claimStatement = prepared((db) =>
  db
    .insert(payments)
    .values({
      id: param("id"),
      protocol: param("protocol"),
      paymentKey: param("paymentKey"),
      operation: param("operation"),
      lockKey: param("lockKey"),
      status: "claimed",
      payer: param("payer"),
      amount: param("amount"),
      asset: param("asset"),
      network: param("network"),
      payTo: param("payTo"),
      expiresAt: param("expiresAt"),
      txRef: param("txRef"),
      request: param("request"),
    })
    .onConflictDoNothing()
    .returning({ id: payments.id })
    .prepare("claim_payment"),
);

async function insertClaim(
  tx: DbOrTx,
  id: string,
  input: {
    payment: PeekedPayment;
    operation: string;
    lockKey: string | null;
    request: Record<string, unknown>;
  },
): Promise<boolean> {
  const { payment } = input;
  const inserted = await claimStatement(tx).execute({
    id,
    protocol: payment.protocol,
    paymentKey: payment.paymentKey,
    operation: input.operation,
    lockKey: input.lockKey,
    payer: payment.payer,
    amount: payment.amount,
    asset: payment.asset,
    network: payment.network,
    payTo: payment.payTo,
    expiresAt: payment.expiresAt?.toISOString() ?? null,
    txRef: payment.reference ?? null,
    request: jsonb(input.request),
  });
  return inserted.length === 1;
}

/**
 * Takes back a claim whose credential verification then refused, before anything was settled: the
 * credential was never spent, so it may be presented again. Only a claimed row can be released.
 */
export async function releaseClaim(db: DbOrTx, paymentId: string): Promise<void> {
  await db.delete(payments).where(and(eq(payments.id, paymentId), eq(payments.status, "claimed")));
}

/** Records that the money moved; only a claimed row can become settled. */
export async function markSettled(db: DbOrTx, paymentId: string, txRef: string): Promise<void> {
  await db
    .update(payments)
    .set({ status: "settled", txRef, updatedAt: sql`now()` })
    .where(and(eq(payments.id, paymentId), eq(payments.status, "claimed")));
}

/** Records that nothing moved, releasing the resource lock; the credential stays spent. */
export async function markFailed(db: DbOrTx, paymentId: string, error: string): Promise<void> {
  await db
    .update(payments)
    .set({ status: "failed", error: error.slice(0, 500), updatedAt: sql`now()` })
    .where(and(eq(payments.id, paymentId), eq(payments.status, "claimed")));
}

/** Records that a settled payment was paid back, releasing its resource lock. */
export async function markRefunded(
  db: DbOrTx,
  paymentId: string,
  refundTxRef: string,
  reason: string,
): Promise<void> {
  await db
    .update(payments)
    .set({ status: "refunded", refundTxRef, error: reason.slice(0, 500), updatedAt: sql`now()` })
    .where(and(eq(payments.id, paymentId), eq(payments.status, "fulfilled")));
}

/** The ledger row a paid write is stored against, and the settlement to record on it. */
export type LedgerRef = {
  paymentId: string;
  /** The settlement's transaction; null when the row already records it (recovery). */
  txRef: string | null;
};

/** A paid write was asked to store against a ledger row that is not awaiting it: nothing was stored. */
export class NotAwaitingFulfilment extends Error {
  constructor(paymentId: string) {
    super(`payment ${paymentId} is not awaiting fulfilment`);
    this.name = "NotAwaitingFulfilment";
  }
}

/**
 * The ledger's half of storing a paid write: a claimed or settled row becomes fulfilled, linked to the
 * write and to its settlement transaction (a null txRef keeps the one recorded). It is an UPDATE …
 * RETURNING, so a write can run it in its own transaction (`fulfilPayment`) or embed it as a CTE and
 * stay a single statement, prepared or not. Only one writer can move a row out of claimed/settled, so
 * a write is stored once even when recovery races the request.
 */
export function fulfilment(
  db: DbOrTx,
  ref: { paymentId: Bound<string>; txRef: Bound<string | null> },
  resultId: Bound<string>,
) {
  return db
    .update(payments)
    .set({
      status: "fulfilled",
      resultId: sql`${resultId}`,
      txRef: sql`coalesce(${ref.txRef}, ${payments.txRef})`,
      updatedAt: sql`now()`,
    })
    .where(and(eq(payments.id, ref.paymentId), inArray(payments.status, ["claimed", "settled"])))
    .returning({ id: payments.id });
}

/** Fulfils the row inside the write's transaction; throws, rolling the write back, when it is not awaiting it. */
export async function fulfilPayment(tx: DbOrTx, ref: LedgerRef, resultId: string): Promise<void> {
  if ((await fulfilment(tx, ref, resultId)).length !== 1) throw new NotAwaitingFulfilment(ref.paymentId);
}
