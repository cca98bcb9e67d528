import Link from "next/link";
import type { WebhookDelivery } from "@/lib/api-client/fetchers/webhooks";
import { changesOf, headlineOf, pathOf } from "./delivery-words";

/** What a delivery announced: its event, and each item it carried, linked, with what changed. */
export function DeliveryItems({ delivery }: { delivery: WebhookDelivery }) {
  const { items } = delivery;
  return (
    <div className="min-w-0 space-y-1">
      <p className="font-mono text-xs text-zinc-600" title={delivery.id}>
        {items.length > 1 ? `${items.length} items in one message` : headlineOf(delivery)}
        {delivery.resentFrom ? <span className="ml-1 font-sans text-zinc-500">(re-send)</span> : null}
      </p>
      {items.length > 0 ? (
        <ul className="space-y-0.5">
          {items.map((item) => (
            <li key={item.id} className="text-sm break-words">
              <Link href={pathOf(item.url)} className="font-medium text-indigo-700 hover:underline">
                {item.title ?? item.id}
              </Link>
              <span className="text-zinc-500"> · {changesOf(item.events)}</span>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
