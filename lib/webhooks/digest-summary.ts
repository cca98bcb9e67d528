import "server-only";
import { and, desc, eq, gte, isNotNull, lt, sql } from "drizzle-orm";
import type { DbOrTx } from "@/lib/db/client";
import { feedback, feedbackEvents, payouts } from "@/lib/db/schema";
import { formatUsd } from "@/lib/money";
import { FEEDBACK_STATUSES, type FeedbackType, type Severity } from "@/lib/schemas/feedback";
import { DIGEST_NEWEST_MAX, type WebhookEventDataOf } from "@/lib/schemas/webhook-events";

const DAY_MS = 86_400_000;
const counted = sql<number>`count(*)::int`;

/**
 * What happened in a namespace on one UTC day (YYYY-MM-DD): new items by type and the newest few,
 * status changes by the status entered (resolutions among them), rewards paid. Null for a quiet day.
 */
export async function summariseDay(
  db: DbOrTx,
  namespace: string,
  day: string,
): Promise<WebhookEventDataOf<"digest.daily"> | null> {
  const from = new Date(`${day}T00:00:00.000Z`);
  const to = new Date(from.getTime() + DAY_MS);
  const filed = and(
    eq(feedback.namespace, namespace),
    gte(feedback.createdAt, from),
    lt(feedback.createdAt, to),
  );
  const byType = await db
    .select({ type: feedback.type, n: counted })
    .from(feedback)
    .where(filed)
    .groupBy(feedback.type);
  const newest = await db
    .select({ id: feedback.id, type: feedback.type, title: feedback.title, severity: feedback.severity })
    .from(feedback)
    .where(filed)
    .orderBy(desc(feedback.createdAt), desc(feedback.id))
    .limit(DIGEST_NEWEST_MAX);
  const e = feedbackEvents;
  const moves = await db
    .select({ to: e.toStatus, n: counted })
    .from(e)
    .where(
      and(
        eq(e.namespace, namespace),
        gte(e.createdAt, from),
        lt(e.createdAt, to),
        isNotNull(e.toStatus),
        sql`${e.fromStatus} is distinct from ${e.toStatus}`,
      ),
    )
    .groupBy(e.toStatus);
  const [paid] = await db
    .select({ n: counted, units: sql<string>`coalesce(sum(${payouts.amount}::numeric), 0)::text` })
    .from(payouts)
    .innerJoin(feedback, eq(feedback.id, payouts.feedbackId))
    .where(
      and(
        eq(feedback.namespace, namespace),
        eq(payouts.status, "paid"),
        gte(payouts.updatedAt, from),
        lt(payouts.updatedAt, to),
      ),
    );

  const created = { total: 0, bug: 0, feature: 0, feedback: 0 };
  for (const row of byType) {
    created.total += row.n;
    if (row.type in created) created[row.type as FeedbackType] += row.n;
  }
  const into = Object.fromEntries(FEEDBACK_STATUSES.map((s) => [s, 0])) as Record<
    (typeof FEEDBACK_STATUSES)[number],
    number
  >;
  for (const row of moves) if (row.to) into[row.to] += row.n;
  const statusChanges = { total: moves.reduce((n, row) => n + row.n, 0), to: into };
  // Payout amounts are USDC.e base units (6 decimals), that is micro-USD.
  const rewards = { count: paid?.n ?? 0, amount: formatUsd(BigInt((paid?.units ?? "0").split(".")[0]!)) };
  if (created.total === 0 && statusChanges.total === 0 && rewards.count === 0) return null;
  return {
    namespace,
    date: day,
    from: from.toISOString(),
    to: to.toISOString(),
    created,
    newest: newest.map((n) => ({
      id: n.id,
      type: n.type as FeedbackType,
      title: n.title,
      severity: n.severity as Severity | null,
    })),
    statusChanges,
    rewards,
  };
}
