import "server-only";
import { and, asc, eq, inArray, isNull, lt, lte, or, sql } from "drizzle-orm";
import { type DbOrTx, getDb } from "@/lib/db/client";
import { webhookDeliveries } from "@/lib/db/schema";
import { attempt, foldedInto, inSeconds } from "./attempt";
import { callbacksOf, type Receiver, receiversOf, titlesOf } from "./receivers";
import type { SendOptions, SendResult } from "./send";

export { BACKOFF_SECONDS } from "./attempt";
/** Attempts one pass runs at once to one receiver host; its other due deliveries go back to the queue. */
export const PER_HOST_LIMIT = 2;
// Longer than one send can take (10 s), so a lease only lapses when its worker died.
const LEASE_SECONDS = 60;

export type WorkerOptions = {
  limit?: number;
  send?: (url: string, body: string, headers: Record<string, string>, o: SendOptions) => Promise<SendResult>;
  sendOptions?: SendOptions;
  db?: DbOrTx;
  /** Only these namespaces' deliveries (a targeted pass; tests sharing a database). */
  namespace?: string | string[];
};

const d = webhookDeliveries;
const unleased = () => or(isNull(d.lockedUntil), lt(d.lockedUntil, sql`now()`));

/** Leases up to `limit` due deliveries; SKIP LOCKED and the lease keep two workers off one row. */
async function claim(db: DbOrTx, limit: number, namespace?: string | string[]) {
  // Each namespace's oldest first, then each one's second, …: one receiver's backlog, sent only
  // PER_HOST_LIMIT at a time, cannot fill every pass while other receivers wait behind it. The ranking
  // looks at a bounded window of the oldest due rows (an index scan), never at the whole backlog.
  const window = db
    .select({ id: d.id, namespace: d.namespace, nextAttemptAt: d.nextAttemptAt })
    .from(d)
    .where(
      and(
        eq(d.status, "pending"),
        namespace === undefined ? undefined : inArray(d.namespace, [namespace].flat()),
        lte(d.nextAttemptAt, sql`now()`),
        unleased(),
      ),
    )
    .orderBy(asc(d.nextAttemptAt))
    .limit(limit * 10)
    .as("window");
  const turn = sql<number>`row_number() over (partition by ${window.namespace} order by ${window.nextAttemptAt})`;
  const ranked = db
    .select({ id: window.id, turn: turn.as("turn") })
    .from(window)
    .as("ranked");
  const due = db
    .select({ id: d.id })
    .from(d)
    .innerJoin(ranked, eq(ranked.id, d.id))
    .where(unleased())
    .orderBy(asc(ranked.turn), asc(d.nextAttemptAt))
    .limit(limit)
    .for("update", { of: d, skipLocked: true });
  // Re-checked on the row itself: a concurrent claim that won the row makes this one skip it.
  return db
    .update(d)
    .set({ lockedUntil: inSeconds(LEASE_SECONDS) })
    .where(and(inArray(d.id, due), unleased()))
    .returning();
}

type Delivery = Awaited<ReturnType<typeof claim>>[number];

/** Where a delivery goes: its report's callback, or its namespace's webhook. */
type ReceiverOf = (row: Delivery) => Receiver | undefined;

/** The ids of the items that chat-format deliveries name (and the events folded into them). */
function itemIds(rows: Delivery[], folded: Map<string, Delivery[]>, receiverOf: ReceiverOf) {
  return rows.flatMap((row) => {
    if ((receiverOf(row)?.format ?? "standard") === "standard") return [];
    return [row, ...(folded.get(row.id) ?? [])].flatMap((one) => {
      const id = (one.payload.data as { id?: unknown } | undefined)?.id;
      return typeof id === "string" ? [id] : [];
    });
  });
}

function hostOf(url: string | null | undefined): string | null {
  try {
    return url ? new URL(url).hostname.replace(/\.$/, "") : null;
  } catch {
    return null;
  }
}

/** Oldest first, at most PER_HOST_LIMIT per host; a row with no usable URL fails without a connection. */
function share(rows: Delivery[], receiverOf: ReceiverOf) {
  const running = new Map<string, number>();
  const start: Delivery[] = [];
  const later: Delivery[] = [];
  const oldestFirst = [...rows].sort((a, b) => a.nextAttemptAt.getTime() - b.nextAttemptAt.getTime());
  for (const row of oldestFirst) {
    const host = hostOf(receiverOf(row)?.url);
    const count = host === null ? 0 : (running.get(host) ?? 0);
    if (count >= PER_HOST_LIMIT) later.push(row);
    else {
      start.push(row);
      if (host !== null) running.set(host, count + 1);
    }
  }
  return { start, later };
}

/** Ends the lease of rows not tried; attempts and next_attempt_at stay as they were. */
async function giveBack(db: DbOrTx, rows: Delivery[]) {
  if (rows.length === 0) return;
  const ids = rows.map((row) => row.id);
  await db
    .update(d)
    .set({ lockedUntil: null })
    .where(and(inArray(d.id, ids), eq(d.status, "pending")));
}

/**
 * One worker pass: leases due deliveries, hands back those whose host already has PER_HOST_LIMIT
 * attempts running, then sends the rest with no transaction open (PGlite has one connection),
 * recording each outcome and the next attempt. Safe to run in any number of instances.
 */
export async function deliverDueWebhooks(options: WorkerOptions = {}) {
  const db = options.db ?? (await getDb());
  const rows = await claim(db, options.limit ?? 20, options.namespace);
  const byNamespace = await receiversOf(
    db,
    rows.filter((row) => row.callbackFor === null).map((row) => row.namespace),
  );
  const byReport = await callbacksOf(
    db,
    rows.flatMap((row) => row.callbackFor ?? []),
  );
  const receiverOf: ReceiverOf = (row) =>
    row.callbackFor === null ? byNamespace.get(row.namespace) : byReport.get(row.callbackFor);
  const { start, later } = share(rows, receiverOf);
  // Given back at once rather than held until a slot frees: another pass or instance may send them.
  await giveBack(db, later);
  const folded = await foldedInto(
    db,
    start.map((row) => row.id),
  );
  const titles = await titlesOf(db, itemIds(start, folded, receiverOf));
  const outcome = { delivered: 0, pending: 0, failed: 0, released: later.length };
  await Promise.all(
    start.map(async (row) => {
      const receiver = receiverOf(row);
      const status = await attempt(db, row, folded.get(row.id) ?? [], receiver, titles, options);
      outcome[status] += 1;
    }),
  );
  return outcome;
}
