"use client";

import { useState } from "react";
import { EmptyState, ErrorState, Notice, SkeletonRows } from "@/components/ui/states";
import { explainError, isRetryable } from "@/lib/api-client/explain";
import { useResendDelivery, useWebhookDeliveries } from "@/lib/api-client/hooks/use-webhooks";
import { DeliveryCards } from "./delivery-cards";
import { DeliveryTable } from "./delivery-table";

/**
 * Recent deliveries: what each announced (its items, linked), status, attempts, the last answer,
 * when the next try is due, a re-send, and on request the body sent and the answer's start. A table
 * on wide screens, a stacked list on a phone.
 */
export function DeliveryLog({ owner, namespace }: { owner: string; namespace: string }) {
  const log = useWebhookDeliveries(owner, namespace);
  const resend = useResendDelivery(owner, namespace);
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(new Set());
  if (log.isPending) return <SkeletonRows rows={4} />;
  if (log.isError)
    return (
      <ErrorState
        message={explainError(log.error, "load")}
        onRetry={isRetryable(log.error) ? () => log.refetch() : undefined}
      />
    );
  if (log.data.deliveries.length === 0) {
    return <EmptyState title="No deliveries yet">Events appear here as they are sent.</EmptyState>;
  }
  const toggle = (id: string) => {
    const next = new Set(expanded);
    if (!next.delete(id)) next.add(id);
    setExpanded(next);
  };
  const resending = {
    busyId: resend.isPending ? resend.variables : null,
    disabled: resend.isPending,
    resend: (id: string) => resend.mutate(id),
  };
  const props = { deliveries: log.data.deliveries, expanded, onToggle: toggle, resend: resending };
  return (
    <div>
      {resend.isError ? (
        <div className="p-3">
          <Notice tone="error">{explainError(resend.error, "save")}</Notice>
        </div>
      ) : null}
      <DeliveryTable {...props} />
      <DeliveryCards {...props} />
    </div>
  );
}
