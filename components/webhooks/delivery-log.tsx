"use client";

import { formatDateTime } from "@/components/format";
import { Badge, type Tone } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { EmptyState, ErrorState, Notice, SkeletonRows } from "@/components/ui/states";
import { explainError } from "@/lib/api-client/explain";
import type { WebhookDelivery } from "@/lib/api-client/fetchers/webhooks";
import { useResendDelivery, useWebhookDeliveries } from "@/lib/api-client/hooks/use-webhooks";

const STATUS_TONES: Record<WebhookDelivery["status"], Tone> = {
  delivered: "green",
  pending: "amber",
  failed: "rose",
};

/** Recent deliveries: event, status, attempts, last response, when the next try is due, and a re-send. */
export function DeliveryLog({ owner, namespace }: { owner: string; namespace: string }) {
  const log = useWebhookDeliveries(owner, namespace);
  const resend = useResendDelivery(owner, namespace);
  if (log.isPending) return <SkeletonRows rows={4} />;
  if (log.isError)
    return <ErrorState message={explainError(log.error, "load")} onRetry={() => log.refetch()} />;
  if (log.data.deliveries.length === 0) {
    return <EmptyState title="No deliveries yet">Events appear here as they are sent.</EmptyState>;
  }
  return (
    <div className="overflow-x-auto">
      {resend.isError ? (
        <div className="p-3">
          <Notice tone="error">{explainError(resend.error, "save")}</Notice>
        </div>
      ) : null}
      <table className="w-full text-left text-sm">
        <thead className="text-xs text-zinc-500 uppercase">
          <tr>
            <th className="px-3 py-2 font-medium">Event</th>
            <th className="px-3 py-2 font-medium">Status</th>
            <th className="px-3 py-2 font-medium">Attempts</th>
            <th className="px-3 py-2 font-medium">Last response</th>
            <th className="px-3 py-2 font-medium">Last attempt</th>
            <th className="px-3 py-2 font-medium">Next attempt</th>
            <th className="px-3 py-2 font-medium">
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-zinc-100">
          {log.data.deliveries.map((d) => (
            <tr key={d.id}>
              <td className="px-3 py-2 font-mono text-xs" title={d.id}>
                {d.eventType}
                {d.resentFrom ? <span className="ml-1 font-sans text-zinc-500">(re-send)</span> : null}
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
              <td className="px-3 py-2 text-right">
                {d.resentAs ? (
                  <span className="text-xs text-zinc-500" title={d.resentAs}>
                    Re-sent
                  </span>
                ) : d.status !== "pending" ? (
                  <Button
                    size="sm"
                    variant="secondary"
                    busy={resend.isPending && resend.variables === d.id}
                    disabled={resend.isPending}
                    onClick={() => resend.mutate(d.id)}
                  >
                    Re-send
                  </Button>
                ) : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
