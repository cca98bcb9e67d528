import "server-only";
import { and, asc, eq, gt, inArray, lte, or } from "drizzle-orm";
import { type Db, getDb } from "@/lib/db/client";
import { payouts } from "@/lib/db/schema";
import { env } from "@/lib/env";
import { describeError } from "@/lib/http/log";
import { settlePayout } from "./settle-payout";

const PAGE = 50;

/**
 * Finishes payouts a crash or a slow chain left open (owed, or being refunded), paging through every
 * one idle longer than a live request could hold it, oldest first. settlePayout itself never pays twice.
 * An aborted `signal` stops it before the next payout.
 */
export async function recoverPayouts(
  options: { db?: Db; idleMs?: number; feedbackIds?: string[]; signal?: AbortSignal } = {},
) {
  const db = options.db ?? (await getDb());
  // Longer than a live request works on a payout: recovery does not race it (it would be safe, only wasted).
  const idleSince = new Date(Date.now() - (options.idleMs ?? env().X402_TIMEOUT_MS * 3));
  const report = { paid: 0, refunded: 0, pending: 0, errors: 0 };
  let after: { createdAt: Date; id: string } | null = null;
  for (;;) {
    const page: { id: string; feedbackId: string; createdAt: Date }[] = await db
      .select({ id: payouts.id, feedbackId: payouts.feedbackId, createdAt: payouts.createdAt })
      .from(payouts)
      .where(
        and(
          inArray(payouts.status, ["pending", "refunding"]),
          lte(payouts.updatedAt, idleSince),
          after
            ? or(
                gt(payouts.createdAt, after.createdAt),
                and(eq(payouts.createdAt, after.createdAt), gt(payouts.id, after.id)),
              )
            : undefined,
          ...(options.feedbackIds ? [inArray(payouts.feedbackId, options.feedbackIds)] : []),
        ),
      )
      .orderBy(asc(payouts.createdAt), asc(payouts.id))
      .limit(PAGE);
    for (const { feedbackId } of page) {
      // Stopping between payouts is safe: one not looked at is still owed, for the next pass.
      if (options.signal?.aborted) return report;
      try {
        const outcome = await settlePayout(feedbackId, db);
        report[outcome.status]++;
      } catch (error) {
        report.errors++;
        console.error(`[recovery] payout for ${feedbackId}: ${describeError(error)}`);
      }
    }
    const last = page.at(-1);
    if (!last || page.length < PAGE) return report;
    after = { createdAt: last.createdAt, id: last.id };
  }
}
