import "server-only";
import { and, eq, isNull } from "drizzle-orm";
import type { Who } from "@/lib/auth/identity";
import { type DbOrTx, getDb } from "@/lib/db/client";
import { namespaces } from "@/lib/db/schema";
import { requireAccess } from "@/lib/domain/namespace/require-access";
import { newWebhookSecret } from "@/lib/webhooks/sign";

/** The owner's webhook settings; a namespace registered before webhooks existed gets its secret now. */
export async function getWebhook(who: Who, namespace: string, db?: DbOrTx) {
  db ??= await getDb();
  const row = await requireAccess(who, namespace, "webhook", db);
  let secret = row.webhookSecret;
  if (!secret) {
    await db
      .update(namespaces)
      .set({ webhookSecret: newWebhookSecret() })
      .where(and(eq(namespaces.name, namespace), isNull(namespaces.webhookSecret)));
    const [fresh] = await db
      .select({ secret: namespaces.webhookSecret })
      .from(namespaces)
      .where(eq(namespaces.name, namespace));
    secret = fresh?.secret ?? null;
  }
  return {
    namespace,
    url: row.webhookUrl,
    secret,
    format: row.webhookFormat,
    events: row.webhookEvents,
    digest: row.webhookDigest,
  };
}
