import "server-only";
import { and, eq, inArray, lt, type SQL } from "drizzle-orm";
import { type Db, getDb } from "@/lib/db/client";
import { payments } from "@/lib/db/schema";
import { env } from "@/lib/env";
import { describeError } from "@/lib/http/log";
import { markFailed, markSettled } from "./ledger";
import { commitPaid, PROTOCOLS } from "./paid";
import type { PaidContext } from "./types";

/** How to finish each paid operation from the input kept in its ledger row. */
export type PaidCommits = Record<
  string,
  (input: Record<string, unknown>, ctx: PaidContext) => Promise<{ resultId: string; body: unknown }>
>;

export type RecoveryReport = {
  settled: number;
  failed: number;
  fulfilled: number;
  pending: number;
  errors: number;
};

/**
 * Finishes what a crash or a lost answer left half-done, so every charge ends stored or refunded:
 * claimed rows are looked up on chain (settled, or failed once the credential expired), and settled
 * rows get their write stored. Only rows idle longer than a live request could take are touched.
 */
export async function recoverPayments(
  commits: PaidCommits,
  options: { db?: Db; idleMs?: number; paymentIds?: string[] } = {},
): Promise<RecoveryReport> {
  const db = options.db ?? (await getDb());
  const idleSince = new Date(Date.now() - (options.idleMs ?? env().X402_TIMEOUT_MS * 3));
  const only: SQL[] = options.paymentIds ? [inArray(payments.id, options.paymentIds)] : [];
  const report: RecoveryReport = { settled: 0, failed: 0, fulfilled: 0, pending: 0, errors: 0 };

  const fulfil = async (row: typeof payments.$inferSelect) => {
    const commit = commits[row.operation];
    if (!commit) return;
    try {
      await commitPaid((ctx) => commit(row.request, ctx), {
        db,
        paymentId: row.id,
        txRef: null,
        payer: row.payer as `0x${string}`,
        protocol: row.protocol,
      });
      report.fulfilled++;
    } catch (error) {
      report.errors++;
      console.error(`[recovery] payment ${row.id}: storing the paid write failed: ${describeError(error)}`);
    }
  };

  const claimed = await db
    .select()
    .from(payments)
    .where(and(eq(payments.status, "claimed"), lt(payments.updatedAt, idleSince), ...only))
    .limit(100);
  for (const row of claimed) {
    const protocol = PROTOCOLS.find((p) => p.name === row.protocol);
    try {
      const outcome = protocol ? await protocol.reconcile(row) : { state: "pending" as const };
      if (outcome.state === "settled") {
        await markSettled(db, row.id, outcome.txRef);
        report.settled++;
        await fulfil({ ...row, status: "settled" });
      } else if (outcome.state === "unsettled") {
        await markFailed(db, row.id, "the credential expired without being settled");
        report.failed++;
      } else report.pending++;
    } catch (error) {
      report.errors++;
      console.error(`[recovery] payment ${row.id}: reconcile failed: ${describeError(error)}`);
    }
  }

  const settled = await db
    .select()
    .from(payments)
    .where(and(eq(payments.status, "settled"), lt(payments.updatedAt, idleSince), ...only))
    .limit(100);
  for (const row of settled) await fulfil(row);
  return report;
}
