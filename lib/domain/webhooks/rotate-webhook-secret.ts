import "server-only";
import { eq } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { namespaces } from "@/lib/db/schema";
import { requireOwner } from "@/lib/domain/namespace/require-owner";
import { newWebhookSecret } from "@/lib/webhooks/sign";
import { getWebhook } from "./get-webhook";

/** Replaces the signing secret; every delivery from now on, retries included, is signed with the new one. */
export async function rotateWebhookSecret(wallet: string, namespace: string) {
  const db = await getDb();
  await requireOwner(db, namespace, wallet);
  await db
    .update(namespaces)
    .set({ webhookSecret: newWebhookSecret() })
    .where(eq(namespaces.name, namespace));
  return getWebhook(wallet, namespace);
}
