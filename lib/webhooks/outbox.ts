import "server-only";
import { sql } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import type { DbOrTx } from "@/lib/db/client";
import type { Bound } from "@/lib/db/prepared";
import { namespaces, webhookDeliveries } from "@/lib/db/schema";
import type { WebhookEventDataOf, WebhookEventType } from "@/lib/schemas/webhook-events";
import { newMessageId } from "./sign";

const column = (c: AnyPgColumn) => sql.identifier(c.name);

/** One event's outbox values: its message id and its payload as JSON text (what the receiver verifies). */
export function webhookEvent<T extends WebhookEventType>(type: T, data: WebhookEventDataOf<T>) {
  return {
    messageId: newMessageId(),
    type,
    payload: JSON.stringify({ type, timestamp: new Date().toISOString(), data }),
  };
}

/**
 * The outbox row for one event as a CTE named `hook` (an INSERT … SELECT … RETURNING id) that writes
 * nothing when the namespace is unregistered or has no webhook URL. A write that must stay one
 * statement embeds it (with `param`s, when it is prepared); `enqueueWebhook` runs it alone.
 */
export function webhookOutboxCte(
  db: DbOrTx,
  namespace: Bound<string>,
  event: { messageId: Bound<string>; type: WebhookEventType; payload: Bound<string> },
) {
  const d = webhookDeliveries;
  return db
    .$with("hook", { id: sql<string>`id`.as("id") })
    .as(sql`insert into ${d} (${column(d.id)}, ${column(d.namespace)}, ${column(d.eventType)}, ${column(d.payload)})
    select ${event.messageId}, ${namespaces.name}, ${event.type}, ${event.payload}::jsonb
    from ${namespaces}
    where ${namespaces.name} = ${namespace} and ${namespaces.webhookUrl} is not null and ${namespaces.webhookUrl} <> ''
    returning ${column(d.id)}`);
}

/**
 * Records a delivery in the caller's transaction (the outbox), so the event and its webhook commit
 * or roll back together; nothing when the namespace is unregistered or has no webhook URL.
 */
export async function enqueueWebhook<T extends WebhookEventType>(
  tx: DbOrTx,
  namespace: string,
  type: T,
  data: WebhookEventDataOf<T>,
): Promise<string | null> {
  const hook = webhookOutboxCte(tx, namespace, webhookEvent(type, data));
  const [row] = await tx.with(hook).select({ id: hook.id }).from(hook);
  return row?.id ?? null;
}
