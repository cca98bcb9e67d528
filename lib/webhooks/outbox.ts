import "server-only";
import { eq } from "drizzle-orm";
import type { DbOrTx } from "@/lib/db/client";
import { namespaces, webhookDeliveries } from "@/lib/db/schema";
import type { WebhookEventDataOf, WebhookEventType } from "@/lib/schemas/webhook-events";
import { newMessageId } from "./sign";

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
  const [ns] = await tx
    .select({ url: namespaces.webhookUrl })
    .from(namespaces)
    .where(eq(namespaces.name, namespace))
    .limit(1);
  if (!ns?.url) return null;
  const id = newMessageId();
  await tx.insert(webhookDeliveries).values({
    id,
    namespace,
    eventType: type,
    payload: { type, timestamp: new Date().toISOString(), data },
  });
  return id;
}
