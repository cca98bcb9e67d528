import "server-only";
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import type { DbOrTx } from "@/lib/db/client";
import { webhookDeliveries } from "@/lib/db/schema";
import { env } from "@/lib/env";
import type { Receiver } from "./receivers";
import { renderDelivery } from "./render-delivery";
import { type SendResult, sendWebhook } from "./send";
import type { WorkerOptions } from "./worker";

/** Seconds to wait after the n-th failed attempt: about a day in all, then the delivery is failed. */
export const BACKOFF_SECONDS = [5, 30, 120, 600, 1800, 3600, 7200, 14400, 28800, 28800];
/** How much of the receiver's answer the log keeps. */
const RESPONSE_EXCERPT_MAX = 500;

const d = webhookDeliveries;
type Row = typeof webhookDeliveries.$inferSelect;

// Our own integer constants, inlined so both drivers read the interval the same way.
export const inSeconds = (seconds: number) =>
  sql`now() + ${sql.raw(`interval '${Math.trunc(seconds)} seconds'`)}`;

/** The events folded into each of these deliveries (one owner action's), oldest first, by delivery. */
export async function foldedInto(db: DbOrTx, ids: string[]): Promise<Map<string, Row[]>> {
  const byLead = new Map<string, Row[]>();
  if (ids.length === 0) return byLead;
  const rows = await db
    .select()
    .from(d)
    .where(and(inArray(d.foldedInto, ids), eq(d.status, "folded")))
    .orderBy(asc(d.createdAt), asc(d.id));
  for (const row of rows) byLead.set(row.foldedInto!, [...(byLead.get(row.foldedInto!) ?? []), row]);
  return byLead;
}

/**
 * The start of the receiver's answer, for the log: at most RESPONSE_EXCERPT_MAX characters, with
 * the webhook URL (a chat URL is a credential) and the signing secret blanked should it echo them.
 */
function responseExcerpt(body: string, secrets: (string | null)[]): string | null {
  let text = body.slice(0, RESPONSE_EXCERPT_MAX * 4);
  for (const secret of secrets) if (secret) text = text.replaceAll(secret, "[redacted]");
  text = text.slice(0, RESPONSE_EXCERPT_MAX);
  return text === "" ? null : text;
}

/**
 * The standard format sends each event on its own: events that were folded into this delivery for a
 * chat format (the format changed since) go back to the queue as deliveries of their own.
 */
async function unfold(db: DbOrTx, row: Row) {
  await db
    .update(d)
    .set({ status: "pending", foldedInto: null, nextAttemptAt: sql`now()` })
    .where(and(eq(d.foldedInto, row.id), eq(d.status, "folded")));
}

/** One attempt at a leased delivery, in the namespace's current format; records what came of it. */
export async function attempt(
  db: DbOrTx,
  row: Row,
  folded: Row[],
  ns: Receiver | undefined,
  titles: Map<string, string>,
  options: WorkerOptions,
) {
  let result: SendResult;
  let sent: string | null = null;
  if (!ns?.url || !ns.secret) {
    const error = row.callbackFor ? "the report has no callback URL" : "the namespace has no webhook URL";
    result = { ok: false, statusCode: null, error, body: "" };
  } else {
    if (ns.format === "standard" && folded.length > 0) await unfold(db, row);
    const { body, headers } = renderDelivery(
      ns.format,
      row,
      ns.secret,
      { origin: env().PUBLIC_ORIGIN, titles },
      folded.map((one) => one.payload),
    );
    sent = body;
    const send = options.send ?? sendWebhook;
    const sendOptions = { allowLoopback: env().WEBHOOKS_ALLOW_LOOPBACK, ...options.sendOptions };
    result = await send(ns.url, body, headers, sendOptions);
  }
  const attempts = row.attempts + 1;
  const delay = BACKOFF_SECONDS[attempts - 1];
  const status = result.ok ? "delivered" : delay === undefined || !ns?.url ? "failed" : "pending";
  await db
    .update(d)
    .set({
      status,
      attempts,
      lockedUntil: null,
      lastStatusCode: result.statusCode,
      lastError: result.error?.slice(0, 500) ?? null,
      lastAttemptAt: sql`now()`,
      sentBody: sent,
      lastResponseExcerpt: responseExcerpt(result.body, [ns?.url ?? null, ns?.secret ?? null]),
      ...(result.ok ? { deliveredAt: sql`now()` } : {}),
      ...(status === "pending" ? { nextAttemptAt: inSeconds(delay!) } : {}),
    })
    .where(and(eq(d.id, row.id), eq(d.status, "pending")));
  return status;
}
