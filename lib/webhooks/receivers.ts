import "server-only";
import { inArray } from "drizzle-orm";
import type { DbOrTx } from "@/lib/db/client";
import { feedback, namespaces } from "@/lib/db/schema";
import type { WebhookFormat } from "@/lib/schemas/webhook";

/** Where and how a namespace's deliveries go, as read at send time. */
export type Receiver = { url: string | null; secret: string | null; format: WebhookFormat };

/** Each namespace's webhook URL, secret and format, read at send time: a change applies to retries. */
export async function receiversOf(db: DbOrTx, names: string[]): Promise<Map<string, Receiver>> {
  const unique = [...new Set(names)];
  if (unique.length === 0) return new Map();
  const found = await db
    .select({
      name: namespaces.name,
      url: namespaces.webhookUrl,
      secret: namespaces.webhookSecret,
      format: namespaces.webhookFormat,
    })
    .from(namespaces)
    .where(inArray(namespaces.name, unique));
  return new Map(found.map(({ name, ...receiver }) => [name, receiver]));
}

/** The titles of the items chat messages name (the events carry ids only), in one query. */
export async function titlesOf(db: DbOrTx, ids: string[]): Promise<Map<string, string>> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return new Map();
  const found = await db
    .select({ id: feedback.id, title: feedback.title })
    .from(feedback)
    .where(inArray(feedback.id, unique));
  return new Map(found.map((r) => [r.id, r.title]));
}

/** Each report's callback URL and secret, read at send time: a replaced or removed callback applies to retries. */
export async function callbacksOf(db: DbOrTx, ids: string[]): Promise<Map<string, Receiver>> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return new Map();
  const found = await db
    .select({ id: feedback.id, url: feedback.callbackUrl, secret: feedback.callbackSecret })
    .from(feedback)
    .where(inArray(feedback.id, unique));
  return new Map(found.map(({ id, ...receiver }) => [id, { ...receiver, format: "standard" as const }]));
}
