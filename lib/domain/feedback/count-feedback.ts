import "server-only";
import { eq, sql } from "drizzle-orm";
import type { Who } from "@/lib/auth/identity";
import { type DbOrTx, getDb } from "@/lib/db/client";
import { feedback } from "@/lib/db/schema";
import { requireAccess } from "@/lib/domain/namespace/require-access";
import { FEEDBACK_TYPES, type FeedbackType } from "@/lib/schemas/feedback";

type Tally = { open: number; resolved: number };
type Tallies = { byType: Record<FeedbackType, Tally>; total: Tally };

const emptyTallies = (): Tallies => ({
  byType: Object.fromEntries(FEEDBACK_TYPES.map((t) => [t, { open: 0, resolved: 0 }])) as Record<
    FeedbackType,
    Tally
  >,
  total: { open: 0, resolved: 0 },
});

// A group counts once in a tally when any of its reports is in it: what the grouped inbox lists.
const GROUP_KEY = sql`coalesce(${feedback.groupId}, ${feedback.id})`;

/** Labels the filter bar offers: the most used first. */
const LABELS_SHOWN = 100;

/**
 * How many reports a namespace holds per type, open and resolved, the same counted in groups of
 * duplicates (`groups`: the rows of the grouped inbox), and the labels in use with how many items
 * carry each; for the owner only.
 */
export async function countFeedback(who: Who, namespace: string, db?: DbOrTx) {
  db ??= await getDb();
  await requireAccess(who, namespace, "read", db);
  // By type and state, and by state alone (a group merged by hand may hold several types).
  const rows = await db
    .select({
      type: sql<string | null>`case when grouping(${feedback.type}) = 0 then ${feedback.type} end`,
      resolved: feedback.resolved,
      n: sql<number>`(count(*))::int`,
      groups: sql<number>`(count(distinct ${GROUP_KEY}))::int`,
    })
    .from(feedback)
    .where(eq(feedback.namespace, namespace))
    .groupBy(sql`grouping sets ((${feedback.type}, ${feedback.resolved}), (${feedback.resolved}))`);
  const label = sql<string>`label`;
  const labels = await db
    .select({ name: label, count: sql<number>`(count(*))::int` })
    .from(sql`${feedback} cross join lateral unnest(${feedback.labels}) as label`)
    .where(eq(feedback.namespace, namespace))
    .groupBy(label)
    .orderBy(sql`count(*) desc`, label)
    .limit(LABELS_SHOWN);
  const reports = emptyTallies();
  const groups = emptyTallies();
  for (const row of rows) {
    const key = row.resolved ? "resolved" : "open";
    if (row.type === null) {
      reports.total[key] = row.n;
      groups.total[key] = row.groups;
    } else if (row.type in reports.byType) {
      reports.byType[row.type as FeedbackType][key] = row.n;
      groups.byType[row.type as FeedbackType][key] = row.groups;
    }
  }
  return { namespace, ...reports, groups, labels };
}
