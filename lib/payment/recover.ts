import "server-only";
import { and, asc, eq, gt, inArray, lte, or, type SQL } from "drizzle-orm";
import { type Db, getDb } from "@/lib/db/client";
import { payments } from "@/lib/db/schema";
import { env } from "@/lib/env";
import { describeError } from "@/lib/http/log";
import { PROTOCOLS } from "./challenge";
import { commitPaid } from "./commit-paid";
import { failPayment, markSettled, type PaymentRow } from "./ledger";
import type { PaidContext, Release } from "./types";

/** How to finish (and how to release) each paid operation, from the input kept in its ledger row. */
export type PaidOperations = Record<
  string,
  {
    commit: (
      input: Record<string, unknown>,
      ctx: PaidContext,
    ) => Promise<{ resultId: string; body: unknown }>;
    release?: Release;
  }
>;

export type RecoveryReport = {
  /** Claims the chain proved paid. */
  settled: number;
  /** Claims the chain proved unpaid, failed and released. */
  failed: number;
  /** Paid writes stored. */
  fulfilled: number;
  /** Claims whose credential can still move money: looked at again next pass. */
  pending: number;
  /** Claims whose outcome is unknown (the chain or the database could not be asked). */
  errors: number;
};

const PAGE = 100;

/**
 * Finishes what a crash or a lost answer left half-done, so every charge ends stored or released: open
 * rows idle past a live request are paged oldest first and looked up on chain (settled, or failed and
 * released); settled rows get their write stored; an unknown outcome waits for the next pass. An
 * aborted `signal` stops it before the next row.
 */
export async function recoverPayments(
  operations: PaidOperations,
  options: { db?: Db; idleMs?: number; paymentIds?: string[]; signal?: AbortSignal } = {},
): Promise<RecoveryReport> {
  const db = options.db ?? (await getDb());
  const idleSince = new Date(Date.now() - (options.idleMs ?? env().X402_TIMEOUT_MS * 3));
  const only: SQL[] = options.paymentIds ? [inArray(payments.id, options.paymentIds)] : [];
  const report: RecoveryReport = { settled: 0, failed: 0, fulfilled: 0, pending: 0, errors: 0 };

  let after: { createdAt: Date; id: string } | null = null;
  for (;;) {
    const page: PaymentRow[] = await db
      .select()
      .from(payments)
      .where(
        and(
          inArray(payments.status, ["claimed", "settled"]),
          lte(payments.updatedAt, idleSince),
          after
            ? or(
                gt(payments.createdAt, after.createdAt),
                and(eq(payments.createdAt, after.createdAt), gt(payments.id, after.id)),
              )
            : undefined,
          ...only,
        ),
      )
      .orderBy(asc(payments.createdAt), asc(payments.id))
      .limit(PAGE);
    for (const row of page) {
      // Stopping between rows is safe: a row not looked at is still open, for the next pass.
      if (options.signal?.aborted) return report;
      await recoverOne(db, operations, row, report);
    }
    const last = page.at(-1);
    if (!last || page.length < PAGE) return report;
    after = { createdAt: last.createdAt, id: last.id };
  }
}

async function recoverOne(db: Db, operations: PaidOperations, row: PaymentRow, report: RecoveryReport) {
  const operation = operations[row.operation];
  try {
    if (row.status === "claimed") {
      const protocol = PROTOCOLS.find((p) => p.name === row.protocol);
      if (!protocol) throw new Error(`unknown protocol ${row.protocol}`);
      const outcome = await protocol.reconcile(row);
      if (outcome.state === "pending") {
        report.pending++;
        return;
      }
      if (outcome.state === "unsettled") {
        if (await failPayment(db, row.id, outcome.reason, operation?.release)) report.failed++;
        return;
      }
      await markSettled(db, row.id, outcome.txRef);
      report.settled++;
    }
    if (!operation) throw new Error(`unknown operation ${row.operation}`);
    await commitPaid((ctx) => operation.commit(row.request, ctx), {
      db,
      paymentId: row.id,
      txRef: null,
      payer: row.payer as `0x${string}`,
      payerContractOn: row.payerContractOn,
      protocol: row.protocol,
    });
    report.fulfilled++;
  } catch (error) {
    report.errors++;
    console.error(`[recovery] payment ${row.id} (${row.status}): ${describeError(error)}`);
  }
}
