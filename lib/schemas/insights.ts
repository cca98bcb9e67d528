import { z } from "zod";
import { FEEDBACK_STATUSES, FEEDBACK_TYPES } from "./feedback";
import { line } from "./text";

/** Buckets a period can be cut into: UTC days, or ISO weeks (Monday to Sunday, UTC). */
const INSIGHT_BUCKETS = ["day", "week"] as const;
export type InsightBucket = (typeof INSIGHT_BUCKETS)[number];

/** The period shown when none is asked for, and the longest one: a year of days stays a light read. */
const INSIGHT_DEFAULT_DAYS = 30;
const INSIGHT_MAX_DAYS = 365;

const DAY_MS = 86_400_000;
const date = z.iso.date({ error: "must be a date, YYYY-MM-DD" });
const daysMessage = `must be a whole number from 1 to ${INSIGHT_MAX_DAYS}`;

/** Query of GET /api/namespace/insights: a namespace and a period of whole UTC days. */
export const insightsQuerySchema = z
  .strictObject({
    namespace: line(3, 30),
    /** The last `days` days up to `to` (today by default), both included. Not with `from`. */
    days: z.coerce
      .number({ error: daysMessage })
      .int({ error: daysMessage })
      .min(1, { error: daysMessage })
      .max(INSIGHT_MAX_DAYS, { error: daysMessage })
      .optional()
      .meta({ description: `The last N days, 1 to ${INSIGHT_MAX_DAYS} (default ${INSIGHT_DEFAULT_DAYS})` }),
    from: date.optional().meta({ description: "First day of the period (UTC), included; not with days" }),
    to: date.optional().meta({ description: "Last day of the period (UTC), included; default today" }),
    bucket: z
      .enum(INSIGHT_BUCKETS, { error: `must be one of: ${INSIGHT_BUCKETS.join(", ")}` })
      .default("day")
      .meta({ description: "day, or week (ISO weeks from Monday, UTC)" }),
  })
  .superRefine(
    (q, ctx) => {
      const issue = (field: string, message: string) =>
        ctx.addIssue({ code: "custom", path: [field], message });
      if (q.days !== undefined && q.from !== undefined) issue("days", "give days or from, not both");
      if (!q.from) return;
      const to = q.to ?? utcDay(new Date());
      if (q.from > to) issue("from", "must not be after to (or today)");
      else if (spanDays(q.from, to) > INSIGHT_MAX_DAYS) {
        issue("from", `must start a period of at most ${INSIGHT_MAX_DAYS} days`);
      }
    },
    // Only a query whose every field is well formed is checked as a whole: one error per bad field.
    { when: (payload) => payload.issues.length === 0 },
  );
export type InsightsQuery = z.output<typeof insightsQuerySchema>;

/** The UTC day of an instant, YYYY-MM-DD. */
function utcDay(at: Date): string {
  return at.toISOString().slice(0, 10);
}

/** The day `n` days after `day` (before it when negative). */
export function addDays(day: string, n: number): string {
  return utcDay(new Date(Date.parse(day) + n * DAY_MS));
}

/** Days from `from` to `to`, both included. */
function spanDays(from: string, to: string): number {
  return Math.round((Date.parse(to) - Date.parse(from)) / DAY_MS) + 1;
}

/** The first and last day a query asks for: `from`, or the last `days` days, up to `to` or today. */
export function insightsPeriod(query: InsightsQuery, now = new Date()): { from: string; to: string } {
  const to = query.to ?? utcDay(now);
  return { from: query.from ?? addDays(to, 1 - (query.days ?? INSIGHT_DEFAULT_DAYS)), to };
}

const count = z.number().int().min(0);
const day = z.string().meta({ description: "A UTC day, YYYY-MM-DD" });
const typeCounts = Object.fromEntries(FEEDBACK_TYPES.map((t) => [t, count])) as Record<
  (typeof FEEDBACK_TYPES)[number],
  typeof count
>;
const median = (what: string) =>
  z.strictObject({
    medianSeconds: z
      .number()
      .int()
      .min(0)
      .meta({ description: `Median ${what}, in seconds; 0 when count is 0` }),
    count: count.meta({ description: "How many items the median is taken over" }),
  });

/** 200 of GET /api/namespace/insights. */
export const insightsResponseSchema = z.strictObject({
  namespace: z.string(),
  from: day.meta({ description: "First day of the period (UTC), included" }),
  to: day.meta({ description: "Last day of the period (UTC), included" }),
  bucket: z.enum(INSIGHT_BUCKETS),
  buckets: z
    .array(
      z.strictObject({
        start: day.meta({
          description: "The bucket's first day (a week's Monday; it may start before from)",
        }),
        ...typeCounts,
        created: count.meta({ description: "Items filed in the bucket, every type" }),
        resolved: count.meta({
          description: "Items resolved in the bucket (by resolvedAt) and still resolved",
        }),
      }),
    )
    .meta({ description: "Every bucket of the period, oldest first, empty ones included" }),
  totals: z
    .strictObject({
      items: count,
      open: count.meta({ description: "Not resolved, whatever their triage status" }),
      resolved: count,
      byStatus: z.strictObject(Object.fromEntries(FEEDBACK_STATUSES.map((s) => [s, count]))),
    })
    .meta({ description: "The whole namespace now, not only the period" }),
  firstResponse: median(
    "time from filing to the owner's first action (a status, merge or label change)",
  ).meta({
    description: "Over the items filed in the period that the owner has acted on",
  }),
  resolution: median("time from filing to resolution").meta({
    description: "Over the items resolved in the period",
  }),
  topReporters: z
    .array(z.strictObject({ wallet: z.string(), count: count.min(1) }))
    .max(10)
    .meta({ description: "The wallets that filed the most items in the period, most first (at most 10)" }),
  rewardsPaid: z
    .strictObject({
      count,
      totalMicroUsd: z.string().regex(/^\d+$/).meta({ description: "Base units of USDC (6 decimals)" }),
      totalUsd: z.string().meta({ description: "The same total as a USD decimal string" }),
    })
    .meta({ description: "Rewards whose transfer landed on chain in the period" }),
  confirmations: z
    .strictObject({
      resolutions: count.meta({
        description: "Resolutions made in the period (an item resolved twice counts twice)",
      }),
      confirmed: count.meta({ description: "Answers in the period from submitters saying the fix worked" }),
      disputed: count.meta({
        description: "Answers in the period saying it did not (each reopened its item)",
      }),
      confirmedShare: z
        .number()
        .min(0)
        .max(1)
        .meta({ description: "confirmed / resolutions, 0 to 1 (0 without a resolution in the period)" }),
    })
    .meta({ description: "How submitters answered the resolutions of their reports, in the period" }),
});
export type Insights = z.output<typeof insightsResponseSchema>;
