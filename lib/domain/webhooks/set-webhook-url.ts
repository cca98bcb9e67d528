import "server-only";
import { eq } from "drizzle-orm";
import { type DbOrTx, getDb } from "@/lib/db/client";
import { namespaces } from "@/lib/db/schema";
import { requireOwner } from "@/lib/domain/namespace/require-owner";
import type { UpdateWebhookInput } from "@/lib/schemas/webhook";
import { assertWebhookUrlAllowed } from "@/lib/webhooks/url-check";
import { getWebhook } from "./get-webhook";

/** Changes (or, with null, removes) the webhook URL; a host's DNS answers are checked at send time. */
export async function setWebhookUrl(wallet: string, input: UpdateWebhookInput, db?: DbOrTx) {
  assertWebhookUrlAllowed(input.url, "url");
  db ??= await getDb();
  await requireOwner(wallet, input.namespace, db);
  await db.update(namespaces).set({ webhookUrl: input.url }).where(eq(namespaces.name, input.namespace));
  return getWebhook(wallet, input.namespace);
}
