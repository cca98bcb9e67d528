import "server-only";
import { count, eq, inArray, lte, min, sql } from "drizzle-orm";
import { type Db, getDb } from "@/lib/db/client";
import { payments, payouts, webhookDeliveries } from "@/lib/db/schema";
import { type MetricFamily, oneSample } from "@/lib/http/prometheus";

const ageSeconds = (since: Date | null) => (since ? Math.max(0, (Date.now() - since.getTime()) / 1000) : 0);

/** Open claims: payments claimed or settled and not yet stored, failed or refunded (recovery's queue). */
async function openClaims(db: Db) {
  const [row] = await db
    .select({ n: count(), oldest: min(payments.createdAt) })
    .from(payments)
    .where(inArray(payments.status, ["claimed", "settled"]));
  return { n: row?.n ?? 0, age: ageSeconds(row?.oldest ?? null) };
}

/** Payouts not finished: pending (owed, maybe sent) and refunding (being paid back). */
async function openPayouts(db: Db) {
  const rows = await db
    .select({ status: payouts.status, n: count() })
    .from(payouts)
    .where(inArray(payouts.status, ["pending", "refunding"]))
    .groupBy(payouts.status);
  return Object.fromEntries(rows.map((r) => [r.status, r.n])) as Record<string, number>;
}

/** Webhook deliveries pending: all of them, those due now, and how long the oldest due one has waited. */
async function webhookBacklog(db: Db) {
  const due = lte(webhookDeliveries.nextAttemptAt, sql`now()`);
  const [row] = await db
    .select({
      pending: count(),
      due: sql<number>`count(*) filter (where ${due})`.mapWith(Number),
      oldestDue: sql<Date | null>`min(${webhookDeliveries.createdAt}) filter (where ${due})`.mapWith(
        webhookDeliveries.createdAt,
      ),
    })
    .from(webhookDeliveries)
    .where(eq(webhookDeliveries.status, "pending"));
  return { pending: row?.pending ?? 0, due: row?.due ?? 0, age: ageSeconds(row?.oldestDue ?? null) };
}

/**
 * The work queues, read from the database at scrape time (each query served by an index on status),
 * so every instance reports the same shared figures.
 */
export async function backlogFamilies(): Promise<MetricFamily[]> {
  const db = await getDb();
  const claims = await openClaims(db);
  const owed = await openPayouts(db);
  const hooks = await webhookBacklog(db);
  const gauge = oneSample;
  return [
    gauge(
      "feedback_open_claims",
      "Payments claimed or settled but not finished (recovery's queue).",
      claims.n,
    ),
    gauge(
      "feedback_open_claims_oldest_age_seconds",
      "Age of the oldest open claim; 0 when there is none.",
      claims.age,
    ),
    {
      name: "feedback_payouts_open",
      help: "Reward payouts not finished, by status (pending: owed or in flight; refunding: being paid back).",
      type: "gauge",
      samples: ["pending", "refunding"].map((status) => ({ labels: { status }, value: owed[status] ?? 0 })),
    },
    gauge(
      "feedback_webhook_deliveries_pending",
      "Webhook deliveries not yet delivered or failed.",
      hooks.pending,
    ),
    gauge(
      "feedback_webhook_deliveries_due",
      "Pending webhook deliveries whose next attempt is due now.",
      hooks.due,
    ),
    gauge(
      "feedback_webhook_oldest_due_age_seconds",
      "Age of the oldest due webhook delivery; 0 when none is due.",
      hooks.age,
    ),
  ];
}
