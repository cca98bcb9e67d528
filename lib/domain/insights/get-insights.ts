import "server-only";
import { and, desc, eq, gte, isNotNull, lt, ne, sql } from "drizzle-orm";
import type { Who } from "@/lib/auth/identity";
import { type DbOrTx, getDb } from "@/lib/db/client";
import { feedback, feedbackEvents, payouts } from "@/lib/db/schema";
import { requireAccess } from "@/lib/domain/namespace/require-access";
import { formatUsd } from "@/lib/money";
import {
  FEEDBACK_STATUSES,
  FEEDBACK_TYPES,
  type FeedbackStatus,
  type FeedbackType,
} from "@/lib/schemas/feedback";
import { addDays, type Insights, type InsightsQuery, insightsPeriod } from "@/lib/schemas/insights";
import { bucketOf, bucketStarts, dayNumber } from "./buckets";

const TOP_REPORTERS = 10;

/** The median of seconds between two timestamps, over the rows aggregated, and how many there were. */
const medianSeconds = (later: unknown, earlier: unknown) =>
  sql<number>`coalesce(percentile_cont(0.5) within group (order by extract(epoch from (${later} - ${earlier}))::float8), 0)`;
const rowCount = sql<number>`count(*)::int`;

/**
 * A namespace's figures over whole UTC days, for its owner (filed and resolved per bucket, median times to a
 * first action and to resolution, top reporters, rewards, totals), all aggregated by the database over the
 * namespace's indexes by creation time and by status.
 */
export async function getInsights(who: Who, query: InsightsQuery, db?: DbOrTx): Promise<Insights> {
  db ??= await getDb();
  const ns = await requireAccess(who, query.namespace, "read", db);
  const period = insightsPeriod(query);
  const start = new Date(`${period.from}T00:00:00Z`);
  const end = new Date(`${addDays(period.to, 1)}T00:00:00Z`);
  const filed = and(
    eq(feedback.namespace, ns.name),
    gte(feedback.createdAt, start),
    lt(feedback.createdAt, end),
  );
  // Resolved items only (feedback_ns_status_created_idx); an item is resolved after it is filed.
  const resolvedIn = and(
    eq(feedback.namespace, ns.name),
    eq(feedback.status, "resolved"),
    lt(feedback.createdAt, end),
    gte(feedback.resolvedAt, start),
    lt(feedback.resolvedAt, end),
  );
  const createdBucket = bucketOf(feedback.createdAt, query.bucket);
  const resolvedBucket = bucketOf(feedback.resolvedAt, query.bucket);

  // The owner's first action on each item filed in the period: any change the owner made (status,
  // merge, labels), not the service's own nor a follow-up. An item's history starts when it is filed,
  // so the namespace's events since the period's start hold it: the cost follows the owner's actions
  // in the period (feedback_events_ns_created_idx), not the number of items filed.
  const firstAction = db
    .select({
      feedbackId: feedbackEvents.feedbackId,
      at: sql<Date>`min(${feedbackEvents.createdAt})`.as("at"),
    })
    .from(feedbackEvents)
    .where(
      and(
        eq(feedbackEvents.namespace, ns.name),
        gte(feedbackEvents.createdAt, start),
        ne(feedbackEvents.kind, "follow_up"),
        sql`lower(${feedbackEvents.actor}) = ${ns.ownerWallet.toLowerCase()}`,
      ),
    )
    .groupBy(feedbackEvents.feedbackId)
    .as("first_action");

  // One connection for the eight reads, sent together: a report never holds a pool of its own. JIT
  // is off for them: the per-item lookups inflate the plan's cost, and compiling took longer than running.
  const [created, resolved, statuses, firstResponse, resolution, reporters, rewards, answers] =
    await db.transaction(async (tx) => {
      await tx.execute(sql`set local jit = off`);
      return Promise.all([
        tx
          .select({ bucket: createdBucket, type: feedback.type, n: rowCount })
          .from(feedback)
          .where(filed)
          .groupBy(createdBucket, feedback.type),
        tx
          .select({ bucket: resolvedBucket, n: rowCount })
          .from(feedback)
          .where(resolvedIn)
          .groupBy(resolvedBucket),
        tx
          .select({ status: feedback.status, n: rowCount })
          .from(feedback)
          .where(eq(feedback.namespace, ns.name))
          .groupBy(feedback.status),
        tx
          .select({ median: medianSeconds(firstAction.at, feedback.createdAt), n: rowCount })
          .from(feedback)
          .innerJoin(firstAction, eq(firstAction.feedbackId, feedback.id))
          .where(filed),
        tx
          .select({ median: medianSeconds(feedback.resolvedAt, feedback.createdAt), n: rowCount })
          .from(feedback)
          .where(resolvedIn),
        // Grouped without regard to case: one wallet may be written checksummed by one protocol and not another.
        tx
          .select({ wallet: sql<string>`min(${feedback.submitterWallet})`, n: rowCount })
          .from(feedback)
          .where(and(filed, isNotNull(feedback.submitterWallet)))
          .groupBy(sql`lower(${feedback.submitterWallet})`)
          .orderBy(desc(rowCount), sql`lower(${feedback.submitterWallet})`)
          .limit(TOP_REPORTERS),
        // A reward counts once its transfer landed: a payout row changes for the last time when it is
        // marked paid, so its updated_at is when it was paid (payouts_status_idx).
        tx
          .select({ n: rowCount, total: sql<string>`coalesce(sum(${payouts.amount}::numeric), 0)::text` })
          .from(payouts)
          .innerJoin(feedback, eq(feedback.id, payouts.feedbackId))
          .where(
            and(
              eq(feedback.namespace, ns.name),
              eq(payouts.status, "paid"),
              gte(payouts.updatedAt, start),
              lt(payouts.updatedAt, end),
            ),
          ),
        // The period's resolutions and the submitters' answers to them, from the history
        // (feedback_events_ns_created_idx).
        tx
          .select({
            resolutions: sql<number>`(count(*) filter (where ${feedbackEvents.toStatus} = 'resolved' and ${feedbackEvents.fromStatus} is distinct from 'resolved'))::int`,
            confirmed: sql<number>`(count(*) filter (where ${feedbackEvents.kind} = 'confirmation' and ${feedbackEvents.details}->>'outcome' = 'fixed'))::int`,
            disputed: sql<number>`(count(*) filter (where ${feedbackEvents.kind} = 'confirmation' and ${feedbackEvents.details}->>'outcome' = 'not_fixed'))::int`,
          })
          .from(feedbackEvents)
          .where(
            and(
              eq(feedbackEvents.namespace, ns.name),
              gte(feedbackEvents.createdAt, start),
              lt(feedbackEvents.createdAt, end),
            ),
          ),
      ]);
    });

  const byBucket = new Map(
    bucketStarts(period.from, period.to, query.bucket).map((start) => [
      dayNumber(start),
      { start, bug: 0, feature: 0, feedback: 0, created: 0, resolved: 0 },
    ]),
  );
  for (const row of created) {
    const bucket = byBucket.get(Number(row.bucket));
    if (!bucket) continue;
    bucket.created += row.n;
    if (isFeedbackType(row.type)) bucket[row.type] += row.n;
  }
  for (const row of resolved) {
    const bucket = byBucket.get(Number(row.bucket));
    if (bucket) bucket.resolved += row.n;
  }

  const byStatus = Object.fromEntries(FEEDBACK_STATUSES.map((s) => [s, 0])) as Record<FeedbackStatus, number>;
  for (const row of statuses) byStatus[row.status] += row.n;
  const items = statuses.reduce((sum, row) => sum + row.n, 0);
  const total = BigInt(rewards[0]?.total ?? "0");

  return {
    namespace: ns.name,
    from: period.from,
    to: period.to,
    bucket: query.bucket,
    buckets: [...byBucket.values()],
    totals: { items, open: items - byStatus.resolved, resolved: byStatus.resolved, byStatus },
    firstResponse: median(firstResponse[0]),
    resolution: median(resolution[0]),
    topReporters: reporters.map((r) => ({ wallet: r.wallet, count: r.n })),
    rewardsPaid: { count: rewards[0]?.n ?? 0, totalMicroUsd: total.toString(), totalUsd: formatUsd(total) },
    confirmations: confirmationsOf(answers[0]),
  };
}

function confirmationsOf(row: { resolutions: number; confirmed: number; disputed: number } | undefined) {
  const { resolutions = 0, confirmed = 0, disputed = 0 } = row ?? {};
  // At most 1: a resolution made before the period may be confirmed in it.
  const confirmedShare =
    resolutions === 0 ? 0 : Math.min(1, Math.round((confirmed / resolutions) * 1000) / 1000);
  return { resolutions, confirmed, disputed, confirmedShare };
}

const isFeedbackType = (type: string): type is FeedbackType =>
  (FEEDBACK_TYPES as readonly string[]).includes(type);

/** A median in whole seconds; 0 over no items, never null or NaN. */
function median(row: { median: number; n: number } | undefined) {
  const seconds = Number(row?.median ?? 0);
  return { medianSeconds: Number.isFinite(seconds) ? Math.round(seconds) : 0, count: row?.n ?? 0 };
}
