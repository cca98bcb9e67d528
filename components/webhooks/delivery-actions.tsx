import { Button } from "@/components/ui/button";
import type { WebhookDelivery } from "@/lib/api-client/fetchers/webhooks";

export type ResendState = { busyId: string | null; disabled: boolean; resend: (id: string) => void };

/** What either view of the log (a table on wide screens, cards on a phone) draws from. */
export type DeliveryLogProps = {
  deliveries: WebhookDelivery[];
  expanded: ReadonlySet<string>;
  onToggle: (id: string) => void;
  resend: ResendState;
};

/** A row's actions: show what was sent and answered, and re-send (once) a delivery that is done. */
export function DeliveryActions({
  delivery,
  expanded,
  detailsId,
  onToggle,
  resend,
}: {
  delivery: WebhookDelivery;
  expanded: boolean;
  detailsId: string;
  onToggle: () => void;
  resend: ResendState;
}) {
  return (
    <div className="flex flex-wrap items-center justify-end gap-2 md:flex-nowrap">
      <Button size="sm" variant="ghost" aria-expanded={expanded} aria-controls={detailsId} onClick={onToggle}>
        {expanded ? "Hide details" : "Details"}
      </Button>
      {delivery.resentAs ? (
        <span className="text-xs whitespace-nowrap text-zinc-500" title={delivery.resentAs}>
          Re-sent
        </span>
      ) : delivery.status !== "pending" ? (
        <Button
          size="sm"
          variant="secondary"
          className="whitespace-nowrap"
          busy={resend.busyId === delivery.id}
          disabled={resend.disabled}
          onClick={() => resend.resend(delivery.id)}
        >
          Re-send
        </Button>
      ) : null}
    </div>
  );
}
