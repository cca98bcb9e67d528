import { keepPreviousData, useQuery } from "@tanstack/react-query";
import type { InsightsPeriod } from "../fetchers/insights";
import { insightsQuery } from "../queries";

/** A namespace's insights over a period; the previous period stays on screen while another loads. */
export function useInsights(owner: string, namespace: string, period: InsightsPeriod) {
  return useQuery({
    ...insightsQuery(owner, namespace, period),
    enabled: owner !== "",
    placeholderData: keepPreviousData,
  });
}
