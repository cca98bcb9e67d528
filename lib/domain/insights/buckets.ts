import "server-only";
import { sql } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import { addDays, type InsightBucket } from "@/lib/schemas/insights";

const DAY_MS = 86_400_000;

/** A UTC day as a day number (days since 1970-01-01), the key the database groups by. */
export function dayNumber(day: string): number {
  return Math.round(Date.parse(day) / DAY_MS);
}

/** The Monday of a day's ISO week (UTC), as Postgres's date_trunc('week') gives it. */
function mondayOf(day: string): string {
  const weekday = (new Date(day).getUTCDay() + 6) % 7;
  return addDays(day, -weekday);
}

/** The first day of every bucket from `from` to `to`, oldest first; a week's bucket starts on its Monday. */
export function bucketStarts(from: string, to: string, unit: InsightBucket): string[] {
  const step = unit === "week" ? 7 : 1;
  const starts: string[] = [];
  for (let day = unit === "week" ? mondayOf(from) : from; day <= to; day = addDays(day, step)) {
    starts.push(day);
  }
  return starts;
}

/**
 * The day number of the bucket a timestamp falls in. Integers group faster than formatted text, and the
 * unit is one of two fixed SQL texts, so a select and its GROUP BY render the very same expression.
 */
export function bucketOf(column: AnyPgColumn, unit: InsightBucket) {
  return unit === "week"
    ? sql<number>`(date_trunc('week', ${column} at time zone 'UTC')::date - date '1970-01-01')`
    : sql<number>`((${column} at time zone 'UTC')::date - date '1970-01-01')`;
}
