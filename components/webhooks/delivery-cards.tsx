import { formatDateTime } from "@/components/format";
import { Badge } from "@/components/ui/badge";
import { DeliveryActions, type DeliveryLogProps } from "./delivery-actions";
import { DeliveryDetails } from "./delivery-details";
import { DeliveryItems } from "./delivery-items";
import { answerOf, STATUS_TONES } from "./delivery-words";

/** The log as a stacked list, for a phone: each delivery a card, nothing wider than the screen. */
export function DeliveryCards({ deliveries, expanded, onToggle, resend }: DeliveryLogProps) {
  return (
    <ul className="divide-y divide-zinc-100 md:hidden" aria-label="Deliveries">
      {deliveries.map((d) => {
        const detailsId = `delivery-card-${d.id}`;
        return (
          <li key={d.id} className="space-y-2 px-4 py-3" data-testid="delivery-card">
            <div className="flex items-start justify-between gap-3">
              <DeliveryItems delivery={d} />
              <Badge tone={STATUS_TONES[d.status]}>{d.status}</Badge>
            </div>
            <p className="text-xs text-zinc-600">
              {answerOf(d)} · {d.attempts} {d.attempts === 1 ? "attempt" : "attempts"}
              {d.lastAttemptAt ? ` · last ${formatDateTime(d.lastAttemptAt)}` : ""}
              {d.nextAttemptAt ? ` · next ${formatDateTime(d.nextAttemptAt)}` : ""}
            </p>
            <DeliveryActions
              delivery={d}
              expanded={expanded.has(d.id)}
              detailsId={detailsId}
              onToggle={() => onToggle(d.id)}
              resend={resend}
            />
            {expanded.has(d.id) ? <DeliveryDetails delivery={d} id={detailsId} /> : null}
          </li>
        );
      })}
    </ul>
  );
}
