import { Fragment } from "react";
import { formatDateTime } from "@/components/format";
import { Badge } from "@/components/ui/badge";
import { DeliveryActions, type DeliveryLogProps } from "./delivery-actions";
import { DeliveryDetails } from "./delivery-details";
import { DeliveryItems } from "./delivery-items";
import { answerOf, STATUS_TONES } from "./delivery-words";

/** The log as a table, for screens wide enough for its columns; a row opens to its details. */
export function DeliveryTable({ deliveries, expanded, onToggle, resend }: DeliveryLogProps) {
  return (
    <div className="hidden overflow-x-auto md:block">
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
          {deliveries.map((d) => {
            const detailsId = `delivery-table-${d.id}`;
            return (
              <Fragment key={d.id}>
                <tr>
                  <td className="px-3 py-2 align-top">
                    <DeliveryItems delivery={d} />
                  </td>
                  <td className="px-3 py-2 align-top">
                    <Badge tone={STATUS_TONES[d.status]}>{d.status}</Badge>
                  </td>
                  <td className="px-3 py-2 align-top tabular-nums">{d.attempts}</td>
                  <td className="px-3 py-2 align-top">{answerOf(d)}</td>
                  <td className="px-3 py-2 align-top text-zinc-600">
                    {d.lastAttemptAt ? formatDateTime(d.lastAttemptAt) : "—"}
                  </td>
                  <td className="px-3 py-2 align-top text-zinc-600">
                    {d.nextAttemptAt ? formatDateTime(d.nextAttemptAt) : "—"}
                  </td>
                  <td className="px-3 py-2 align-top">
                    <DeliveryActions
                      delivery={d}
                      expanded={expanded.has(d.id)}
                      detailsId={detailsId}
                      onToggle={() => onToggle(d.id)}
                      resend={resend}
                    />
                  </td>
                </tr>
                {expanded.has(d.id) ? (
                  <tr>
                    <td colSpan={7} className="bg-zinc-50/50 px-3 pb-4">
                      <DeliveryDetails delivery={d} id={detailsId} />
                    </td>
                  </tr>
                ) : null}
              </Fragment>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
