import "server-only";
import { randomBytes } from "node:crypto";
import { and, asc, eq, isNull, lt, or, type SQL, sql } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import type { DbOrTx } from "@/lib/db/client";
import type { Bound } from "@/lib/db/prepared";
import { namespaces, webhookDeliveries } from "@/lib/db/schema";
import { isTeamEvent, type WebhookEventDataOf, type WebhookEventType } from "@/lib/schemas/webhook-events";
import { newMessageId } from "./sign";

const column = (c: AnyPgColumn) => sql.identifier(c.name);

/** One event's outbox values: its message id and its payload as JSON text (what the receiver verifies). */
export function webhookEvent<T extends WebhookEventType>(type: T, data: WebhookEventDataOf<T>) {
  return {
    messageId: newMessageId(),
    type,
    payload: JSON.stringify({ type, timestamp: new Date().toISOString(), data }),
  };
}

/**
 * Which namespaces get an event of `type`: a webhook URL, and the type among its chosen events. The
 * choice is applied here, when the event is queued, so nothing is stored for an event no one wants;
 * a test is sent whenever asked, and a digest follows its own setting.
 */
function receives(namespace: Bound<string>, type: WebhookEventType): SQL {
  const always = type === "webhook.test" || type === "digest.daily" || isTeamEvent(type);
  const chosen = always ? sql`` : sql` and ${type}::text = any(${namespaces.webhookEvents})`;
  return sql`${namespaces.name} = ${namespace} and ${namespaces.webhookUrl} is not null and ${namespaces.webhookUrl} <> ''${chosen}`;
}

/**
 * The outbox row for one event as a CTE named `hook` (an INSERT … SELECT … RETURNING id) that writes
 * nothing when the namespace is unregistered, has no webhook URL or did not choose the event. A write
 * that must stay one statement embeds it (with `param`s, when it is prepared); `enqueueWebhook` runs it alone.
 */
export function webhookOutboxCte(
  db: DbOrTx,
  namespace: Bound<string>,
  event: { messageId: Bound<string>; type: WebhookEventType; payload: Bound<string> },
) {
  const d = webhookDeliveries;
  return db
    .$with("hook", { id: sql<string>`id`.as("id") })
    .as(sql`insert into ${d} (${column(d.id)}, ${column(d.namespace)}, ${column(d.eventType)}, ${column(d.payload)})
    select ${event.messageId}, ${namespaces.name}, ${event.type}, ${event.payload}::jsonb
    from ${namespaces}
    where ${receives(namespace, event.type)}
    returning ${column(d.id)}`);
}

/** How the events of one call join an owner action (see enqueueWebhooks). */
export type QueueOptions = {
  /** The owner action that made the events; chat formats send an action's events as one message. */
  action?: string;
  /** Chat formats: hold the action's message this many seconds, for an event still to come. */
  holdSeconds?: number;
  /** The event the action's message was held for: it goes out now. */
  release?: boolean;
};

/** A new owner action's id: every event one action queues carries it. */
export const newActionId = () => `act_${randomBytes(12).toString("base64url")}`;

/** The action of a rewarded resolve, named by its payment: the reward.paid that follows joins it. */
export const rewardActionId = (paymentId: string) => `act_${paymentId}`;

/**
 * Records a delivery in the caller's transaction (the outbox), so the event and its webhook commit
 * or roll back together; nothing when the namespace is unregistered, has no webhook URL or did not
 * choose the event.
 */
export async function enqueueWebhook<T extends WebhookEventType>(
  tx: DbOrTx,
  namespace: string,
  type: T,
  data: WebhookEventDataOf<T>,
  options: QueueOptions = {},
): Promise<string | null> {
  const [id] = await enqueueWebhooks(tx, namespace, type, [data], options);
  return id ?? null;
}

/**
 * `enqueueWebhook` for many events of one type and namespace, in one statement (a bulk triage). For
 * a chat format, the events of `options.action` are folded into one delivery, the action's first one
 * still unsent: the worker sends them as one message. The standard format keeps a delivery per event.
 */
export async function enqueueWebhooks<T extends WebhookEventType>(
  tx: DbOrTx,
  namespace: string,
  type: T,
  data: WebhookEventDataOf<T>[],
  options: QueueOptions = {},
): Promise<string[]> {
  if (data.length === 0) return [];
  const events = data.map((one) => webhookEvent(type, one));
  const open = options.action ? await openLead(tx, namespace, options.action) : null;
  const lead = open === null ? null : (open.lead ?? events[0]!.messageId);
  const values = sql.join(
    events.map((event) => {
      const into = lead !== null && event.messageId !== lead ? lead : null;
      return sql`(${event.messageId}, ${event.payload}, ${into}, ${into === null ? "pending" : "folded"})`;
    }),
    sql`, `,
  );
  const d = webhookDeliveries;
  const hook = tx.$with("hook", { id: sql<string>`id`.as("id") }).as(sql`insert into ${d}
    (${column(d.id)}, ${column(d.namespace)}, ${column(d.eventType)}, ${column(d.payload)}, ${column(d.actionId)}, ${column(d.foldedInto)}, ${column(d.status)})
    select e.id, ${namespaces.name}, ${type}, e.payload::jsonb, ${options.action ?? null}, e.folded_into, e.status
    from ${namespaces}, (values ${values}) as e (id, payload, folded_into, status)
    where ${receives(namespace, type)}
    returning ${column(d.id)}`);
  const ids = (await tx.with(hook).select({ id: hook.id }).from(hook)).map((r) => r.id);
  if (lead !== null && ids.length > 0) await holdOrRelease(tx, lead, options);
  return ids;
}

const unleased = () =>
  or(isNull(webhookDeliveries.lockedUntil), lt(webhookDeliveries.lockedUntil, sql`now()`));

/**
 * For a chat-format namespace, the action's delivery that later events fold into: still pending,
 * never tried and not leased, locked until this transaction ends so no worker sends it meanwhile
 * (the claim skips locked rows). `lead: null` when there is none yet; null for the standard format.
 */
async function openLead(tx: DbOrTx, namespace: string, action: string) {
  const [ns] = await tx
    .select({ format: namespaces.webhookFormat })
    .from(namespaces)
    .where(eq(namespaces.name, namespace));
  if (!ns || ns.format === "standard") return null;
  const d = webhookDeliveries;
  const [lead] = await tx
    .select({ id: d.id })
    .from(d)
    .where(
      and(
        eq(d.namespace, namespace),
        eq(d.actionId, action),
        eq(d.status, "pending"),
        isNull(d.foldedInto),
        eq(d.attempts, 0),
        unleased(),
      ),
    )
    .orderBy(asc(d.createdAt), asc(d.id))
    .limit(1)
    .for("update");
  return { lead: lead?.id ?? null };
}

async function holdOrRelease(tx: DbOrTx, lead: string, options: QueueOptions) {
  const d = webhookDeliveries;
  const hold = sql.raw(`interval '${Math.trunc(options.holdSeconds ?? 0)} seconds'`);
  const next = options.release
    ? sql`least(${d.nextAttemptAt}, now())`
    : options.holdSeconds
      ? sql`greatest(${d.nextAttemptAt}, now() + ${hold})`
      : null;
  if (next) await tx.update(d).set({ nextAttemptAt: next }).where(eq(d.id, lead));
}

/** Sends an action's held message now: what it waited for will not come (a refunded reward). */
export async function releaseHeldAction(tx: DbOrTx, namespace: string, action: string): Promise<void> {
  const d = webhookDeliveries;
  await tx
    .update(d)
    .set({ nextAttemptAt: sql`least(${d.nextAttemptAt}, now())` })
    .where(
      and(eq(d.namespace, namespace), eq(d.actionId, action), eq(d.status, "pending"), isNull(d.foldedInto)),
    );
}
