import "server-only";
import { createHash, randomBytes } from "node:crypto";
import { and, eq, inArray, lt, type SQL, sql } from "drizzle-orm";
import type { DbOrTx } from "@/lib/db/client";
import { type Bound, jsonb, param, prepared } from "@/lib/db/prepared";
import { payments } from "@/lib/db/schema";
import type { LedgerRef, ReadCredential, Release } from "./types";

export type PaymentRow = typeof payments.$inferSelect;

export type ClaimOutcome =
  | { ok: true; paymentId: string; claimedAt: Date }
  | { ok: false; reason: "seen"; row: PaymentRow }
  | { ok: false; reason: "locked" };

/** The hash a re-sent request is recognised by: its validated body, as JSON. */
export function requestHashOf(body: unknown): string {
  return createHash("sha256").update(JSON.stringify(body)).digest("base64url");
}

/** The hash a re-sent credential is recognised by: its text as sent (never stored itself). */
export function credentialHashOf(credential: string): string {
  return createHash("sha256").update(credential).digest("base64url");
}

/** What a claim records: the credential, the operation and its lock, the request and how it is keyed. */
type ClaimInput = {
  payment: ReadCredential;
  operation: string;
  lockKey: string | null;
  request: Record<string, unknown>;
  requestHash: string;
  credentialHash?: string;
  idempotencyKey?: string | null;
};

/**
 * Claims a read credential before any money moves. The database refuses, across processes, a duplicate
 * credential by its payment key (handing back its row, so the caller answers by its state) and a second
 * payment for a resource by its lock key.
 */
export async function claimPayment(
  db: DbOrTx,
  input: ClaimInput & {
    /** Takes the business resource in the same transaction; throws (and claims nothing) when it cannot. */
    reserve?: (tx: DbOrTx, paymentId: string) => Promise<void>;
  },
): Promise<ClaimOutcome> {
  const id = `pay_${randomBytes(12).toString("base64url")}`;
  const { reserve } = input;
  // One INSERT is atomic on its own; a reservation joins it in a transaction so both happen or neither.
  const claimedAt = reserve
    ? await db.transaction(async (tx) => {
        const inserted = await insertClaim(tx, id, input);
        if (inserted) await reserve(tx, id);
        return inserted;
      })
    : await insertClaim(db, id, input);
  if (claimedAt) return { ok: true, paymentId: id, claimedAt };
  const row = await findPayment(db, input.payment.paymentKey);
  return row ? { ok: false, reason: "seen", row } : { ok: false, reason: "locked" };
}

/** The live payment a payer made for an operation under an Idempotency-Key (a failed one frees the key). */
export async function findByIdempotencyKey(
  db: DbOrTx,
  scope: { operation: string; payer: string; key: string },
): Promise<PaymentRow | undefined> {
  const [row] = await db
    .select()
    .from(payments)
    .where(
      and(
        eq(payments.operation, scope.operation),
        eq(payments.payer, scope.payer),
        eq(payments.idempotencyKey, scope.key),
        sql`${payments.status} not in ('failed', 'refunded')`,
      ),
    )
    .limit(1);
  return row;
}

/** The ledger row of a credential, by its replay key. */
export async function findPayment(db: DbOrTx, paymentKey: string): Promise<PaymentRow | undefined> {
  const [row] = await db.select().from(payments).where(eq(payments.paymentKey, paymentKey)).limit(1);
  return row;
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
      payerContractOn: param("payerContractOn"),
      amount: param("amount"),
      asset: param("asset"),
      network: param("network"),
      payTo: param("payTo"),
      expiresAt: param("expiresAt"),
      txRef: param("txRef"),
      request: param("request"),
      requestHash: param("requestHash"),
      credentialHash: param("credentialHash"),
      idempotencyKey: param("idempotencyKey"),
    })
    .onConflictDoNothing()
    .returning({ id: payments.id, createdAt: payments.createdAt })
    .prepare("claim_payment"),
);

/** The claim's time when this insert made it; null when the credential or the lock was taken. */
async function insertClaim(tx: DbOrTx, id: string, input: ClaimInput): Promise<Date | null> {
  const { payment } = input;
  const inserted = await claimStatement(tx).execute({
    id,
    protocol: payment.protocol,
    paymentKey: payment.paymentKey,
    operation: input.operation,
    lockKey: input.lockKey,
    payer: payment.payer,
    payerContractOn: payment.payerContractOn,
    amount: payment.amount,
    asset: payment.asset,
    network: payment.network,
    payTo: payment.payTo,
    expiresAt: payment.expiresAt.toISOString(),
    txRef: payment.reference ?? null,
    request: jsonb(input.request),
    requestHash: input.requestHash,
    credentialHash: input.credentialHash ?? null,
    idempotencyKey: input.idempotencyKey ?? null,
  });
  const createdAt = inserted[0]?.createdAt;
  return createdAt === undefined ? null : new Date(createdAt);
}

/**
 * Takes back a claim whose credential settlement refused before anything was sent: the credential was
 * never spent, so it may be presented again. The row goes and the resource it held is released in one
 * transaction; only a claimed row can be released.
 */
export async function releaseClaim(db: DbOrTx, paymentId: string, release?: Release): Promise<void> {
  await db.transaction(async (tx) => {
    const gone = await tx
      .delete(payments)
      .where(and(eq(payments.id, paymentId), eq(payments.status, "claimed")))
      .returning({ id: payments.id });
    if (gone.length === 1) await release?.(tx, paymentId);
  });
}

/**
 * Records that nothing moved, and gives back what the claim held, in one transaction: a failed claim
 * never leaves an item held. The credential stays spent. Only a claimed row can fail; true when it did.
 */
export async function failPayment(
  db: DbOrTx,
  paymentId: string,
  reason: string,
  release?: Release,
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const failed = await tx
      .update(payments)
      .set({ status: "failed", error: reason.slice(0, 500), updatedAt: sql`now()` })
      .where(and(eq(payments.id, paymentId), eq(payments.status, "claimed")))
      .returning({ id: payments.id });
    if (failed.length === 1) await release?.(tx, paymentId);
    return failed.length === 1;
  });
}

/**
 * Takes over a claim whose request died (idle longer than a live request can be), for a request that
 * carries the same credential again: the row's clock restarts, so recovery and any other resending
 * request leave it alone while this one settles it. True for the one request that wins it.
 */
export async function takeOverIdleClaim(db: DbOrTx, paymentId: string, idleMs: number): Promise<boolean> {
  const won = await db
    .update(payments)
    .set({ updatedAt: sql`now()` })
    .where(
      and(
        eq(payments.id, paymentId),
        eq(payments.status, "claimed"),
        lt(payments.updatedAt, new Date(Date.now() - idleMs)),
      ),
    )
    .returning({ id: payments.id });
  return won.length === 1;
}

/** Records that the money moved; only a claimed row can become settled. */
export async function markSettled(db: DbOrTx, paymentId: string, txRef: string): Promise<void> {
  await db
    .update(payments)
    .set({ status: "settled", txRef, updatedAt: sql`now()` })
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

/** A paid write was asked to store against a ledger row that is not awaiting it: nothing was stored. */
export class NotAwaitingFulfilment extends Error {
  constructor(paymentId: string) {
    super(`payment ${paymentId} is not awaiting fulfilment`);
    this.name = "NotAwaitingFulfilment";
  }
}

/**
 * The ledger's half of storing a paid write: an UPDATE … RETURNING that fulfils a claimed or settled row
 * (a null txRef keeps the recorded one), run in the write's transaction (`fulfilPayment`) or embedded as
 * a CTE. Only one writer moves a row out of claimed/settled, so a race with recovery stores once.
 */
export function fulfilment(
  db: DbOrTx,
  ref: { paymentId: Bound<string>; txRef: Bound<string | null> },
  resultId: Bound<string>,
  response: SQL,
) {
  return db
    .update(payments)
    .set({
      status: "fulfilled",
      resultId: sql`${resultId}`,
      txRef: sql`coalesce(${ref.txRef}, ${payments.txRef})`,
      response: sql`${response}`,
      updatedAt: sql`now()`,
    })
    .where(and(eq(payments.id, ref.paymentId), inArray(payments.status, ["claimed", "settled"])))
    .returning({ id: payments.id, response: payments.response });
}

/** Fulfils the row inside the write's transaction; throws, rolling the write back, when it is not awaiting it. */
export async function fulfilPayment(
  tx: DbOrTx,
  ref: LedgerRef,
  resultId: string,
  response: Record<string, unknown>,
): Promise<void> {
  const done = await fulfilment(tx, ref, resultId, sql`${JSON.stringify(response)}::jsonb`);
  if (done.length !== 1) throw new NotAwaitingFulfilment(ref.paymentId);
}
