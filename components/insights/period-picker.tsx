import type { InsightsPeriod } from "@/lib/api-client/fetchers/insights";
import { PERIODS } from "./use-insights-url";

const PERIOD_LABELS: Record<(typeof PERIODS)[number], string> = {
  7: "7 days",
  30: "30 days",
  90: "90 days",
  365: "1 year",
};

const segment = (active: boolean) =>
  `h-8 rounded-md px-2.5 text-sm font-medium transition-colors focus-visible:outline-2 focus-visible:outline-indigo-600 ${
    active ? "bg-white text-zinc-900 shadow-sm" : "text-zinc-600 hover:text-zinc-900"
  }`;

/** Two segmented controls: how far back, and whether by day or by week. */
export function PeriodPicker({
  period,
  onChange,
}: {
  period: InsightsPeriod;
  onChange: (next: InsightsPeriod) => void;
}) {
  return (
    <div className="flex flex-wrap items-center gap-2">
      <fieldset className="inline-flex rounded-lg bg-zinc-100 p-0.5">
        <legend className="sr-only">Period</legend>
        {PERIODS.map((days) => (
          <button
            key={days}
            type="button"
            aria-pressed={period.days === days}
            className={segment(period.days === days)}
            onClick={() => onChange({ days, bucket: days > 90 ? "week" : period.bucket })}
          >
            {PERIOD_LABELS[days]}
          </button>
        ))}
      </fieldset>
      <fieldset className="inline-flex rounded-lg bg-zinc-100 p-0.5">
        <legend className="sr-only">Bucket</legend>
        {(["day", "week"] as const).map((bucket) => (
          <button
            key={bucket}
            type="button"
            aria-pressed={period.bucket === bucket}
            className={segment(period.bucket === bucket)}
            onClick={() => onChange({ ...period, bucket })}
          >
            {bucket === "day" ? "By day" : "By week"}
          </button>
        ))}
      </fieldset>
    </div>
  );
}
