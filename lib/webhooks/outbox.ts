import "server-only";
import { type SQL, sql } from "drizzle-orm";
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
 * Which namespaces get an event of `type`: a webhook URL, and the type among its chosen events. The
 * choice is applied here, when the event is queued, so nothing is stored for an event no one wants;
 * a test is sent whenever asked, and a digest follows its own setting.
 */
function receives(namespace: Bound<string>, type: WebhookEventType): SQL {
  const chosen =
    type === "webhook.test" || type === "digest.daily"
      ? sql``
      : sql` and ${type}::text = any(${namespaces.webhookEvents})`;
  return sql`${namespaces.name} = ${namespace} and ${namespaces.webhookUrl} is not null and ${namespaces.webhookUrl} <> ''${chosen}`;
}

/**
 * The outbox row for one event as a CTE named `hook` (an INSERT … SELECT … RETURNING id) that writes
 * nothing when the namespace is unregistered, has no webhook URL or did not choose the event. A write
 * that must stay one statement embeds it (with `param`s, when it is prepared); `enqueueWebhook` runs it alone.
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
    where ${receives(namespace, event.type)}
    returning ${column(d.id)}`);
}

/**
 * Records a delivery in the caller's transaction (the outbox), so the event and its webhook commit
 * or roll back together; nothing when the namespace is unregistered, has no webhook URL or did not
 * choose the event.
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

/** `enqueueWebhook` for many events of one type and namespace, in one statement (a bulk triage). */
export async function enqueueWebhooks<T extends WebhookEventType>(
  tx: DbOrTx,
  namespace: string,
  type: T,
  data: WebhookEventDataOf<T>[],
): Promise<string[]> {
  if (data.length === 0) return [];
  const d = webhookDeliveries;
  const events = sql.join(
    data.map((one) => {
      const event = webhookEvent(type, one);
      return sql`(${event.messageId}, ${event.payload})`;
    }),
    sql`, `,
  );
  const hook = tx
    .$with("hook", { id: sql<string>`id`.as("id") })
    .as(sql`insert into ${d} (${column(d.id)}, ${column(d.namespace)}, ${column(d.eventType)}, ${column(d.payload)})
    select e.id, ${namespaces.name}, ${type}, e.payload::jsonb
    from ${namespaces}, (values ${events}) as e (id, payload)
    where ${receives(namespace, type)}
    returning ${column(d.id)}`);
  const rows = await tx.with(hook).select({ id: hook.id }).from(hook);
  return rows.map((r) => r.id);
}
