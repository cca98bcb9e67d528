import "server-only";
import { eq } from "drizzle-orm";
import type { Who } from "@/lib/auth/identity";
import { type DbOrTx, getDb } from "@/lib/db/client";
import { namespaces } from "@/lib/db/schema";
import { requireOwner } from "@/lib/domain/namespace/require-owner";
import { newWebhookSecret } from "@/lib/webhooks/sign";
import { getWebhook } from "./get-webhook";

/** Replaces the signing secret; every delivery from now on, retries included, is signed with the new one. */
export async function rotateWebhookSecret(who: Who, namespace: string, db?: DbOrTx) {
  db ??= await getDb();
  await requireOwner(who, namespace, db);
  await db
    .update(namespaces)
    .set({ webhookSecret: newWebhookSecret() })
    .where(eq(namespaces.name, namespace));
  return getWebhook(who, namespace);
}
