import { usePathname, useSearchParams } from "next/navigation";
import { useCallback, useMemo } from "react";
import type { InsightsPeriod } from "@/lib/api-client/fetchers/insights";

/** The periods offered, in days: a week, a month, a quarter, a year. */
export const PERIODS = [7, 30, 90, 365] as const;

/** The period kept in the URL (`days`, `bucket`), so a view is a link; a year is read by week unless asked. */
export function useInsightsUrl() {
  const params = useSearchParams();
  const pathname = usePathname();
  const period = useMemo<InsightsPeriod>(() => {
    const asked = Number(params.get("days"));
    const days = (PERIODS as readonly number[]).includes(asked) ? asked : 30;
    const bucket = params.get("bucket");
    return { days, bucket: bucket === "day" || bucket === "week" ? bucket : days > 90 ? "week" : "day" };
  }, [params]);

  // A shallow history change, as the inbox does: the query refetches, no server render runs.
  const update = useCallback(
    (next: InsightsPeriod) => {
      const query = new URLSearchParams({ days: String(next.days), bucket: next.bucket });
      window.history.replaceState(null, "", `${pathname}?${query}`);
    },
    [pathname],
  );
  return { period, update };
}
