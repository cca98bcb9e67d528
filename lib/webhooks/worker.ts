import "server-only";
import { and, asc, eq, inArray, isNull, lt, lte, or, sql } from "drizzle-orm";
import { type DbOrTx, getDb } from "@/lib/db/client";
import { namespaces, webhookDeliveries } from "@/lib/db/schema";
import { env } from "@/lib/env";
import { type SendOptions, type SendResult, sendWebhook } from "./send";
import { signatureHeaders } from "./sign";

/** Seconds to wait after the n-th failed attempt: about a day in all, then the delivery is failed. */
export const BACKOFF_SECONDS = [5, 30, 120, 600, 1800, 3600, 7200, 14400, 28800, 28800];
// Longer than one send can take (10 s), so a lease only lapses when its worker died.
const LEASE_SECONDS = 60;

export type WorkerOptions = {
  limit?: number;
  send?: (url: string, body: string, headers: Record<string, string>, o: SendOptions) => Promise<SendResult>;
  sendOptions?: SendOptions;
  db?: DbOrTx;
  /** Only this namespace's deliveries (a targeted pass; tests sharing a database). */
  namespace?: string;
};

/** Leases up to `limit` due deliveries; SKIP LOCKED and the lease keep two workers off one row. */
async function claim(db: DbOrTx, limit: number, namespace?: string) {
  const due = db
    .select({ id: webhookDeliveries.id })
    .from(webhookDeliveries)
    .where(
      and(
        eq(webhookDeliveries.status, "pending"),
        namespace === undefined ? undefined : eq(webhookDeliveries.namespace, namespace),
        lte(webhookDeliveries.nextAttemptAt, sql`now()`),
        or(isNull(webhookDeliveries.lockedUntil), lt(webhookDeliveries.lockedUntil, sql`now()`)),
      ),
    )
    .orderBy(asc(webhookDeliveries.nextAttemptAt))
    .limit(limit)
    .for("update", { skipLocked: true });
  return db
    .update(webhookDeliveries)
    .set({ lockedUntil: inSeconds(LEASE_SECONDS) })
    .where(
      and(
        inArray(webhookDeliveries.id, due),
        // Re-checked on the row itself: a concurrent claim that won the row makes this one skip it.
        or(isNull(webhookDeliveries.lockedUntil), lt(webhookDeliveries.lockedUntil, sql`now()`)),
      ),
    )
    .returning();
}

// Our own integer constants, inlined so both drivers read the interval the same way.
const inSeconds = (seconds: number) => sql`now() + ${sql.raw(`interval '${Math.trunc(seconds)} seconds'`)}`;

type Delivery = Awaited<ReturnType<typeof claim>>[number];

async function attempt(db: DbOrTx, row: Delivery, options: WorkerOptions) {
  // The URL and secret are read at send time: a changed URL or a rotated secret applies to retries.
  const [ns] = await db
    .select({ url: namespaces.webhookUrl, secret: namespaces.webhookSecret })
    .from(namespaces)
    .where(eq(namespaces.name, row.namespace))
    .limit(1);
  let result: SendResult;
  if (!ns?.url || !ns.secret) {
    result = { ok: false, statusCode: null, error: "the namespace has no webhook URL", body: "" };
  } else {
    const body = JSON.stringify(row.payload);
    const send = options.send ?? sendWebhook;
    const sendOptions = { allowLoopback: env().WEBHOOKS_ALLOW_LOOPBACK, ...options.sendOptions };
    result = await send(ns.url, body, signatureHeaders(ns.secret, row.id, body), sendOptions);
  }
  const attempts = row.attempts + 1;
  const delay = BACKOFF_SECONDS[attempts - 1];
  const status = result.ok ? "delivered" : delay === undefined || !ns?.url ? "failed" : "pending";
  await db
    .update(webhookDeliveries)
    .set({
      status,
      attempts,
      lockedUntil: null,
      lastStatusCode: result.statusCode,
      lastError: result.error?.slice(0, 500) ?? null,
      lastAttemptAt: sql`now()`,
      ...(result.ok ? { deliveredAt: sql`now()` } : {}),
      ...(status === "pending" ? { nextAttemptAt: inSeconds(delay!) } : {}),
    })
    .where(and(eq(webhookDeliveries.id, row.id), eq(webhookDeliveries.status, "pending")));
  return status;
}

/**
 * One worker pass: leases due deliveries, then sends each with no transaction open (PGlite has one
 * connection), recording the outcome and the next attempt. Safe to run in any number of instances.
 */
export async function deliverDueWebhooks(options: WorkerOptions = {}) {
  const db = options.db ?? (await getDb());
  const rows = await claim(db, options.limit ?? 20, options.namespace);
  const outcome = { delivered: 0, pending: 0, failed: 0 };
  await Promise.all(
    rows.map(async (row) => {
      outcome[await attempt(db, row, options)] += 1;
    }),
  );
  return outcome;
}
