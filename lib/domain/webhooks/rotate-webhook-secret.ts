import "server-only";
import { eq } from "drizzle-orm";
import type { Who } from "@/lib/auth/identity";
import { type DbOrTx, getDb } from "@/lib/db/client";
import { namespaces } from "@/lib/db/schema";
import { requireAccess } from "@/lib/domain/namespace/require-access";
import { newWebhookSecret } from "@/lib/webhooks/sign";
import { getWebhook } from "./get-webhook";

/** Replaces the signing secret; every delivery from now on, retries included, is signed with the new one. */
export async function rotateWebhookSecret(who: Who, namespace: string, db?: DbOrTx) {
  db ??= await getDb();
  await requireAccess(who, namespace, "webhook", db);
  await db
    .update(namespaces)
    .set({ webhookSecret: newWebhookSecret() })
    .where(eq(namespaces.name, namespace));
  return getWebhook(who, namespace, db);
}
