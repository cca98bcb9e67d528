import "server-only";
import { sql } from "drizzle-orm";
import type { DbOrTx } from "@/lib/db/client";
import { feedback, webhookDeliveries } from "@/lib/db/schema";
import type { CallbackEventDataOf, CallbackEventType } from "@/lib/schemas/callback";
import { newMessageId } from "./sign";

/**
 * One event for the callback of the report `data.id`; a `status` left out is the report's own as the
 * transaction sees it (a merge does not change it).
 */
export type CallbackEvent = {
  [T in CallbackEventType]: {
    type: T;
    data: Omit<CallbackEventDataOf<T>, "status"> & { status?: CallbackEventDataOf<T>["status"] };
  };
}[CallbackEventType];

const column = (c: { name: string }) => sql.identifier(c.name);

/**
 * Queues events for reporters' callbacks in the caller's transaction (the outbox the owners' webhooks use,
 * a row per event marked with the report it is for), so an event commits or rolls back with its change.
 * Only reports with a callback get a row; the URL and secret are read when the worker sends it.
 */
export async function enqueueCallbacks(tx: DbOrTx, events: CallbackEvent[]): Promise<number> {
  if (events.length === 0) return 0;
  const at = new Date().toISOString();
  const values = sql.join(
    events.map((event) => {
      const payload = JSON.stringify({ type: event.type, timestamp: at, data: event.data });
      return sql`(${newMessageId()}, ${event.type}, ${payload}, ${event.data.id})`;
    }),
    sql`, `,
  );
  const d = webhookDeliveries;
  const inserted = await tx.execute(sql`insert into ${d}
    (${column(d.id)}, ${column(d.namespace)}, ${column(d.eventType)}, ${column(d.payload)}, ${column(d.callbackFor)})
    select e.id, ${feedback.namespace}, e.type,
      jsonb_set(e.payload::jsonb, '{data,status}', coalesce(e.payload::jsonb #> '{data,status}', to_jsonb(${feedback.status}))),
      ${feedback.id}
    from (values ${values}) as e (id, type, payload, item)
    join ${feedback} on ${feedback.id} = e.item
    where ${feedback.callbackUrl} is not null
    returning ${column(d.id)}`);
  return rowCount(inserted);
}

function rowCount(result: unknown): number {
  if (Array.isArray(result)) return result.length;
  const rows = (result as { rows?: unknown[] }).rows;
  return rows?.length ?? 0;
}
