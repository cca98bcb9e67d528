import "server-only";
import type { Who } from "@/lib/auth/identity";
import { type DbOrTx, getDb } from "@/lib/db/client";
import { requireAccess } from "@/lib/domain/namespace/require-access";
import { AppError } from "@/lib/http/errors";
import { enqueueWebhook } from "@/lib/webhooks/outbox";

/** Queues a `webhook.test` event, delivered (and logged) like any other. */
export async function sendTestWebhook(who: Who, namespace: string, db?: DbOrTx) {
  db ??= await getDb();
  const row = await requireAccess(who, namespace, "webhook", db);
  const id = row.webhookUrl
    ? await enqueueWebhook(db, namespace, "webhook.test", {
        namespace,
        message: "This is a test event sent from the dashboard.",
      })
    : null;
  if (!id) {
    throw new AppError(
      "webhook-not-configured",
      `The namespace "${namespace}" has no webhook URL; set one first.`,
    );
  }
  return { namespace, id, eventType: "webhook.test", status: "pending" as const };
}
