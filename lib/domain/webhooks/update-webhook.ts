import "server-only";
import { eq, sql } from "drizzle-orm";
import type { Who } from "@/lib/auth/identity";
import { type DbOrTx, getDb } from "@/lib/db/client";
import { namespaces } from "@/lib/db/schema";
import { requireAccess } from "@/lib/domain/namespace/require-access";
import type { UpdateWebhookInput } from "@/lib/schemas/webhook";
import { digestDay } from "@/lib/webhooks/digest";
import { assertWebhookHostResolves, assertWebhookUrlAllowed } from "@/lib/webhooks/url-check";
import { getWebhook } from "./get-webhook";

/**
 * Changes any of the webhook's URL (null removes it), format, events and daily digest; what the
 * input leaves out stays. A new URL's host must resolve, to allowed addresses, before it is saved;
 * its DNS answers are checked again at every send.
 */
export async function updateWebhook(who: Who, input: UpdateWebhookInput, db?: DbOrTx) {
  if (input.url !== undefined) assertWebhookUrlAllowed(input.url, "url");
  db ??= await getDb();
  const row = await requireAccess(who, input.namespace, "webhook", db);
  // After the owner check, so no one else can make the service look names up.
  if (input.url) await assertWebhookHostResolves(input.url, "url");
  const changes = {
    ...(input.url !== undefined ? { webhookUrl: input.url } : {}),
    ...(input.format !== undefined ? { webhookFormat: input.format } : {}),
    ...(input.events !== undefined ? { webhookEvents: input.events } : {}),
    ...(input.digest !== undefined ? { webhookDigest: input.digest } : {}),
    // A digest turned on starts with the day it was turned on (sent after that day's end), not with
    // a summary of the day before; never moved back, so no day is summarised twice.
    ...(input.digest === "daily" && row.webhookDigest !== "daily"
      ? {
          webhookDigestThrough: sql`greatest(coalesce(${namespaces.webhookDigestThrough}, ${digestDay(new Date())}::date), ${digestDay(new Date())}::date)`,
        }
      : {}),
  };
  if (Object.keys(changes).length > 0) {
    await db.update(namespaces).set(changes).where(eq(namespaces.name, input.namespace));
  }
  return getWebhook(who, input.namespace, db);
}
