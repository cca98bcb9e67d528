import "server-only";
import { and, inArray, lt } from "drizzle-orm";
import { type Db, getDb } from "@/lib/db/client";
import { payouts } from "@/lib/db/schema";
import { describeError } from "@/lib/http/log";
import { settlePayout } from "./settle-payout";

/**
 * Finishes payouts a crash or a slow chain left open (owed, or being refunded). Only rows idle longer
 * than a live request could hold them are touched; settlePayout itself never pays twice.
 */
export async function recoverPayouts(options: { db?: Db; idleMs?: number; feedbackIds?: string[] } = {}) {
  const db = options.db ?? (await getDb());
  const idleSince = new Date(Date.now() - (options.idleMs ?? 45_000));
  const open = await db
    .select({ feedbackId: payouts.feedbackId })
    .from(payouts)
    .where(
      and(
        inArray(payouts.status, ["pending", "refunding"]),
        lt(payouts.updatedAt, idleSince),
        ...(options.feedbackIds ? [inArray(payouts.feedbackId, options.feedbackIds)] : []),
      ),
    )
    .limit(50);
  const report = { paid: 0, refunded: 0, pending: 0, errors: 0 };
  for (const { feedbackId } of open) {
    try {
      const outcome = await settlePayout(feedbackId, db);
      report[outcome.status]++;
    } catch (error) {
      report.errors++;
      console.error(`[recovery] payout for ${feedbackId}: ${describeError(error)}`);
    }
  }
  return report;
}
