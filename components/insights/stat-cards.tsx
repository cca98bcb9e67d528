import type { ReactNode } from "react";
import type { Insights } from "@/lib/api-client/fetchers/insights";
import { usdLabel } from "@/lib/api-client/money";
import { formatDuration } from "./format";

function Stat({
  label,
  value,
  note,
  testId,
}: {
  label: string;
  value: ReactNode;
  note: string;
  testId: string;
}) {
  return (
    <div className="min-w-0 rounded-xl border border-zinc-200 bg-white p-4" data-testid={testId}>
      <dt className="text-sm text-zinc-500">{label}</dt>
      <dd className="mt-1 text-2xl font-semibold tracking-tight break-words tabular-nums">{value}</dd>
      <dd className="mt-0.5 text-xs text-zinc-500">{note}</dd>
    </div>
  );
}

const items = (n: number) => `${n} ${n === 1 ? "item" : "items"}`;

/**
 * The headline figures: open and resolved now, the two medians, the rewards paid and the share of
 * resolutions their submitters confirmed, in the period.
 */
export function StatCards({ insights }: { insights: Insights }) {
  const { totals, firstResponse, resolution, rewardsPaid, confirmations } = insights;
  const median = (m: Insights["firstResponse"]) => (m.count === 0 ? "—" : formatDuration(m.medianSeconds));
  return (
    <dl className="grid grid-cols-2 gap-3 lg:grid-cols-3 xl:grid-cols-6">
      <Stat label="Open" value={totals.open} note={`of ${items(totals.items)}, now`} testId="insights-open" />
      <Stat label="Resolved" value={totals.resolved} note="now" testId="insights-resolved" />
      <Stat
        label="First response"
        value={median(firstResponse)}
        note={firstResponse.count === 0 ? "no item answered yet" : `median of ${items(firstResponse.count)}`}
        testId="insights-first-response"
      />
      <Stat
        label="Time to resolve"
        value={median(resolution)}
        note={resolution.count === 0 ? "none resolved in the period" : `median of ${items(resolution.count)}`}
        testId="insights-resolution"
      />
      <Stat
        label="Rewards paid"
        value={usdLabel(rewardsPaid.totalUsd)}
        note={`${rewardsPaid.count} ${rewardsPaid.count === 1 ? "reward" : "rewards"} in the period`}
        testId="insights-rewards"
      />
      <Stat
        label="Fixes confirmed"
        value={confirmations.resolutions === 0 ? "—" : `${Math.round(confirmations.confirmedShare * 100)}%`}
        note={
          confirmations.resolutions === 0
            ? "no resolution in the period"
            : `${confirmations.confirmed} of ${confirmations.resolutions} resolutions · ${confirmations.disputed} disputed`
        }
        testId="insights-confirmed"
      />
    </dl>
  );
}
