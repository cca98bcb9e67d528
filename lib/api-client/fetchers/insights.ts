import type { InsightBucket, Insights } from "@/lib/schemas/insights";
import { api } from "../http";

export type { Insights };

/** The period the insights page asks for: the last `days` days up to today, cut into `bucket`s. */
export type InsightsPeriod = { days: number; bucket: InsightBucket };

/** A namespace's figures over the last `days` days, for its owner. */
export function fetchInsights(namespace: string, period: InsightsPeriod): Promise<Insights> {
  const params = new URLSearchParams({ namespace, days: String(period.days), bucket: period.bucket });
  return api<Insights>(`/api/namespace/insights?${params}`);
}
