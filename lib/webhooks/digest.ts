import "server-only";
import { and, asc, eq, inArray, isNotNull, isNull, lt, ne, notInArray, or } from "drizzle-orm";
import { type DbOrTx, getDb } from "@/lib/db/client";
import { namespaces, webhookDeliveries } from "@/lib/db/schema";
import { describeError } from "@/lib/http/log";
import { summariseDay } from "./digest-summary";

const DAY_MS = 86_400_000;

/** The UTC day (YYYY-MM-DD) a digest queued at `now` summarises: the one before. */
export function digestDay(now: Date): string {
  return new Date(now.getTime() - DAY_MS).toISOString().slice(0, 10);
}

/** A namespace whose digest for `day` is still to be queued. */
const dueFor = (day: string) =>
  and(
    eq(namespaces.webhookDigest, "daily"),
    isNotNull(namespaces.webhookUrl),
    ne(namespaces.webhookUrl, ""),
    or(isNull(namespaces.webhookDigestThrough), lt(namespaces.webhookDigestThrough, day)),
  );

export type DigestOptions = {
  db?: DbOrTx;
  /** The clock (tests): a pass at `now` queues the digests of the UTC day before. */
  now?: Date;
  /** Only these namespaces (a targeted pass; tests sharing a database). */
  namespace?: string | string[];
  limit?: number;
};

/**
 * Queues the daily digest (`digest.daily`) of every namespace that has one due: once per namespace
 * per UTC day, whatever the number of instances running this (see queueDigest).
 */
export async function queueDueDigests(options: DigestOptions = {}) {
  const db = options.db ?? (await getDb());
  const day = digestDay(options.now ?? new Date());
  const only =
    options.namespace === undefined ? undefined : inArray(namespaces.name, [options.namespace].flat());
  const limit = options.limit ?? 100;
  const outcome = { due: 0, queued: 0 };
  // One namespace that fails (logged, tried again next time) must not hold back the others.
  const failed: string[] = [];
  // A batch at a time: a namespace handled is no longer due, so the next batch is the rest.
  for (;;) {
    const due = await db
      .select({ name: namespaces.name })
      .from(namespaces)
      .where(and(dueFor(day), only, failed.length > 0 ? notInArray(namespaces.name, failed) : undefined))
      .orderBy(asc(namespaces.name))
      .limit(limit);
    outcome.due += due.length;
    for (const { name } of due) {
      try {
        if (await queueDigest(db, name, day)) outcome.queued += 1;
      } catch (error) {
        failed.push(name);
        console.error(`[webhooks] digest of ${name} for ${day} failed: ${describeError(error)}`);
      }
    }
    if (due.length < limit) return outcome;
  }
}

/**
 * One namespace's digest of `day`, in one transaction: a conditional update moves its
 * `webhook_digest_through` to the day (the claim: a second instance's update finds it done and
 * changes nothing), then the summary joins the outbox. Its id is derived from the namespace and
 * day, so even a claim made twice could not queue a second one. A quiet day is claimed, not sent.
 */
async function queueDigest(db: DbOrTx, namespace: string, day: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    const claimed = await tx
      .update(namespaces)
      .set({ webhookDigestThrough: day })
      .where(and(eq(namespaces.name, namespace), dueFor(day)))
      .returning({ name: namespaces.name });
    if (claimed.length === 0) return false;
    const data = await summariseDay(tx, namespace, day);
    if (!data) return false;
    const queued = await tx
      .insert(webhookDeliveries)
      .values({
        id: `msg_digest_${day}_${namespace}`,
        namespace,
        eventType: "digest.daily",
        payload: { type: "digest.daily", timestamp: new Date().toISOString(), data },
      })
      .onConflictDoNothing()
      .returning({ id: webhookDeliveries.id });
    return queued.length === 1;
  });
}
