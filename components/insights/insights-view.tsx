"use client";

import { BackToInbox } from "@/components/layout/back-to-inbox";
import { ErrorState, Loading } from "@/components/ui/states";
import { explainError, isRetryable } from "@/lib/api-client/explain";
import { useInsights } from "@/lib/api-client/hooks/use-insights";
import { useSession } from "@/lib/api-client/hooks/use-session";
import { FlowChart } from "./flow-chart";
import { bucketName } from "./format";
import { ItemsChart } from "./items-chart";
import { PeriodPicker } from "./period-picker";
import { StatCards } from "./stat-cards";
import { TopReporters } from "./top-reporters";
import { useInsightsUrl } from "./use-insights-url";

/** A namespace's insights: the period picker, headline figures, two charts with their tables, reporters. */
export function InsightsView({ namespace }: { namespace: string }) {
  const { session } = useSession();
  const owner = session?.address ?? "";
  const { period, update } = useInsightsUrl();
  const insights = useInsights(owner, namespace, period);
  const data = insights.data;

  return (
    <div className="mx-auto max-w-6xl space-y-6 px-4 py-6 sm:px-6">
      <div className="flex flex-wrap items-center gap-x-2 gap-y-3">
        <BackToInbox namespace={namespace} />
        <h1 className="min-w-0 text-lg font-semibold tracking-tight break-all">
          <span className="font-mono">{namespace}</span> · Insights
        </h1>
        <div className="w-full sm:ml-auto sm:w-auto">
          <PeriodPicker period={period} onChange={update} />
        </div>
      </div>
      {insights.isPending ? (
        <Loading />
      ) : insights.isError ? (
        <ErrorState
          message={explainError(insights.error, "load")}
          onRetry={isRetryable(insights.error) ? () => insights.refetch() : undefined}
        />
      ) : data ? (
        <div className={`space-y-6 transition-opacity ${insights.isPlaceholderData ? "opacity-60" : ""}`}>
          <p className="text-sm text-zinc-500" data-testid="insights-period">
            {bucketName(data.from, "day")} to {bucketName(data.to, "day")} (UTC)
          </p>
          <StatCards insights={data} />
          <div className="grid gap-6 lg:grid-cols-2">
            <ItemsChart insights={data} />
            <FlowChart insights={data} />
          </div>
          <TopReporters reporters={data.topReporters} />
        </div>
      ) : null}
    </div>
  );
}
