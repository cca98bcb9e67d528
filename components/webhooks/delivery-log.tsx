"use client";

import { formatDateTime } from "@/components/format";
import { Badge, type Tone } from "@/components/ui/badge";
import { EmptyState, ErrorState, SkeletonRows } from "@/components/ui/states";
import { explainError } from "@/lib/api-client/explain";
import type { WebhookDelivery } from "@/lib/api-client/fetchers/webhooks";
import { useWebhookDeliveries } from "@/lib/api-client/hooks/use-webhooks";

const STATUS_TONES: Record<WebhookDelivery["status"], Tone> = {
  delivered: "green",
  pending: "amber",
  failed: "rose",
};

/** Recent deliveries: event, status, attempts, last response and when the next try is due. */
export function DeliveryLog({ owner, namespace }: { owner: string; namespace: string }) {
  const log = useWebhookDeliveries(owner, namespace);
  if (log.isPending) return <SkeletonRows rows={4} />;
  if (log.isError)
    return <ErrorState message={explainError(log.error, "load")} onRetry={() => log.refetch()} />;
  if (log.data.deliveries.length === 0) {
    return <EmptyState title="No deliveries yet">Events appear here as they are sent.</EmptyState>;
  }
  return (
    <div className="overflow-x-auto">
      <table className="w-full text-left text-sm">
        <thead className="text-xs text-zinc-500 uppercase">
          <tr>
            <th className="px-3 py-2 font-medium">Event</th>
            <th className="px-3 py-2 font-medium">Status</th>
            <th className="px-3 py-2 font-medium">Attempts</th>
            <th className="px-3 py-2 font-medium">Last response</th>
            <th className="px-3 py-2 font-medium">Last attempt</th>
            <th className="px-3 py-2 font-medium">Next attempt</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-zinc-100">
          {log.data.deliveries.map((d) => (
            <tr key={d.id}>
              <td className="px-3 py-2 font-mono text-xs" title={d.id}>
                {d.eventType}
              </td>
              <td className="px-3 py-2">
                <Badge tone={STATUS_TONES[d.status]}>{d.status}</Badge>
              </td>
              <td className="px-3 py-2 tabular-nums">{d.attempts}</td>
              <td className="px-3 py-2" title={d.lastError ?? undefined}>
                {d.lastStatusCode ?? (d.lastError ? "no answer" : "—")}
              </td>
              <td className="px-3 py-2 text-zinc-600">
                {d.lastAttemptAt ? formatDateTime(d.lastAttemptAt) : "—"}
              </td>
              <td className="px-3 py-2 text-zinc-600">
                {d.nextAttemptAt ? formatDateTime(d.nextAttemptAt) : "—"}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
