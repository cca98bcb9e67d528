import "server-only";
import { desc, eq } from "drizzle-orm";
import type { Who } from "@/lib/auth/identity";
import { type DbOrTx, getDb } from "@/lib/db/client";
import { webhookDeliveries } from "@/lib/db/schema";
import { requireOwner } from "@/lib/domain/namespace/require-owner";
import type { WebhookDeliveriesQuery } from "@/lib/schemas/webhook";

const iso = (d: Date | null) => d?.toISOString() ?? null;

/** The namespace's most recent deliveries, newest first, as the delivery log shows them. */
export async function listWebhookDeliveries(who: Who, query: WebhookDeliveriesQuery, db?: DbOrTx) {
  db ??= await getDb();
  await requireOwner(who, query.namespace, db);
  const rows = await db
    .select()
    .from(webhookDeliveries)
    .where(eq(webhookDeliveries.namespace, query.namespace))
    .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
    .limit(query.limit);
  return {
    namespace: query.namespace,
    count: rows.length,
    deliveries: rows.map((r) => ({
      id: r.id,
      eventType: r.eventType,
      status: r.status,
      attempts: r.attempts,
      lastStatusCode: r.lastStatusCode,
      lastError: r.lastError,
      lastAttemptAt: iso(r.lastAttemptAt),
      nextAttemptAt: r.status === "pending" ? iso(r.nextAttemptAt) : null,
      deliveredAt: iso(r.deliveredAt),
      createdAt: iso(r.createdAt),
      resentFrom: r.resentFrom,
      resentAs: r.resentAs,
    })),
  };
}
