import "server-only";
import { eq, sql } from "drizzle-orm";
import { type DbOrTx, getDb } from "@/lib/db/client";
import { feedback } from "@/lib/db/schema";
import { requireOwner } from "@/lib/domain/namespace/require-owner";
import { FEEDBACK_TYPES, type FeedbackType } from "@/lib/schemas/feedback";

type Tally = { open: number; resolved: number };

/** Labels the filter bar offers: the most used first. */
const LABELS_SHOWN = 100;

/**
 * How many items a namespace holds per type, open and resolved, and the labels in use with how many
 * items carry each; for the owner only.
 */
export async function countFeedback(wallet: string, namespace: string, db?: DbOrTx) {
  db ??= await getDb();
  await requireOwner(wallet, namespace, db);
  const rows = await db
    .select({ type: feedback.type, resolved: feedback.resolved, n: sql<number>`(count(*))::int` })
    .from(feedback)
    .where(eq(feedback.namespace, namespace))
    .groupBy(feedback.type, feedback.resolved);
  const label = sql<string>`label`;
  const labels = await db
    .select({ name: label, count: sql<number>`(count(*))::int` })
    .from(sql`${feedback} cross join lateral unnest(${feedback.labels}) as label`)
    .where(eq(feedback.namespace, namespace))
    .groupBy(label)
    .orderBy(sql`count(*) desc`, label)
    .limit(LABELS_SHOWN);
  const byType = Object.fromEntries(FEEDBACK_TYPES.map((t) => [t, { open: 0, resolved: 0 }])) as Record<
    FeedbackType,
    Tally
  >;
  const total: Tally = { open: 0, resolved: 0 };
  for (const row of rows) {
    const key = row.resolved ? "resolved" : "open";
    const tally = byType[row.type as FeedbackType];
    if (tally) tally[key] += row.n;
    total[key] += row.n;
  }
  return { namespace, byType, total, labels };
}
