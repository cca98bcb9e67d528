import "server-only";
import { and, desc, eq, isNull, ne } from "drizzle-orm";
import type { Who } from "@/lib/auth/identity";
import { type DbOrTx, getDb } from "@/lib/db/client";
import { webhookDeliveries } from "@/lib/db/schema";
import { requireAccess } from "@/lib/domain/namespace/require-access";
import { env } from "@/lib/env";
import type { WebhookDeliveriesQuery } from "@/lib/schemas/webhook";
import { foldedInto } from "@/lib/webhooks/attempt";
import { byTitle, itemUrl } from "@/lib/webhooks/describe-event";
import { titlesOf } from "@/lib/webhooks/receivers";

const iso = (d: Date | null) => d?.toISOString() ?? null;

type Row = typeof webhookDeliveries.$inferSelect;

// The order an item's events are listed in: the order one action makes them.
const EVENT_ORDER = [
  "feedback.created",
  "feedback.status_changed",
  "feedback.resolved",
  "feedback.confirmed",
  "feedback.disputed",
  "reward.paid",
];
// An unknown type (indexOf -1) turns into the largest unsigned number: it goes last.
const rank = (type: string) => EVENT_ORDER.indexOf(type) >>> 0;

/** The items a delivery's events name, each with the events it had in the delivery. */
function itemsOf(rows: Row[]) {
  const byItem = new Map<string, string[]>();
  for (const row of rows) {
    const id = (row.payload.data as { id?: unknown } | undefined)?.id;
    if (typeof id === "string") byItem.set(id, [...(byItem.get(id) ?? []), row.eventType]);
  }
  for (const events of byItem.values()) events.sort((a, b) => rank(a) - rank(b));
  return byItem;
}

/**
 * The namespace's most recent deliveries, newest first, as the delivery log shows them: one row per
 * delivery, so a chat message that carried one owner action's events is one row listing its items.
 */
export async function listWebhookDeliveries(who: Who, query: WebhookDeliveriesQuery, db?: DbOrTx) {
  db ??= await getDb();
  await requireAccess(who, query.namespace, "webhook", db);
  const d = webhookDeliveries;
  const rows = await db
    .select()
    .from(d)
    // A reporter's callback events are its own: never in the owner's log.
    .where(and(eq(d.namespace, query.namespace), ne(d.status, "folded"), isNull(d.callbackFor)))
    .orderBy(desc(d.createdAt), desc(d.id))
    .limit(query.limit);
  const folded = await foldedInto(
    db,
    rows.map((r) => r.id),
  );
  const items = new Map(rows.map((r) => [r.id, itemsOf([r, ...(folded.get(r.id) ?? [])])]));
  const titles = await titlesOf(
    db,
    [...items.values()].flatMap((byItem) => [...byItem.keys()]),
  );
  const origin = env().PUBLIC_ORIGIN;
  return {
    namespace: query.namespace,
    count: rows.length,
    deliveries: rows.map((r) => ({
      id: r.id,
      eventType: r.eventType,
      status: r.status as Exclude<Row["status"], "folded">,
      attempts: r.attempts,
      items: [...items.get(r.id)!]
        .map(([id, events]) => ({
          id,
          title: titles.get(id) ?? null,
          url: itemUrl(origin, query.namespace, id),
          events,
        }))
        .sort(byTitle),
      lastStatusCode: r.lastStatusCode,
      lastError: r.lastError,
      lastResponseExcerpt: r.lastResponseExcerpt,
      sentBody: r.sentBody,
      lastAttemptAt: iso(r.lastAttemptAt),
      nextAttemptAt: r.status === "pending" ? iso(r.nextAttemptAt) : null,
      deliveredAt: iso(r.deliveredAt),
      createdAt: iso(r.createdAt),
      resentFrom: r.resentFrom,
      resentAs: r.resentAs,
    })),
  };
}
