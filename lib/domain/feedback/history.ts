import "server-only";
import { randomBytes } from "node:crypto";
import { and, asc, eq, inArray, isNotNull, isNull, ne } from "drizzle-orm";
import type { DbOrTx } from "@/lib/db/client";
import { type FeedbackEventKind, feedback, feedbackEvents } from "@/lib/db/schema";
import type { FeedbackStatus } from "@/lib/schemas/feedback";
import { type CallbackEvent, enqueueCallbacks } from "@/lib/webhooks/callbacks";
import { enqueueWebhooks, newActionId } from "@/lib/webhooks/outbox";

/** One change to an item, as its history shows it. */
export type HistoryEntry = {
  at: string;
  kind: FeedbackEventKind;
  actor: string;
  from: FeedbackStatus | null;
  to: FeedbackStatus | null;
  message: string | null;
  details: Record<string, unknown> | null;
};

type NewEvent = {
  /** Its id, when the caller needs it (a follow-up answers with it); a new one otherwise. */
  id?: string;
  feedbackId: string;
  namespace: string;
  kind: FeedbackEventKind;
  actor: string;
  from?: FeedbackStatus | null;
  to?: FeedbackStatus | null;
  message?: string | null;
  details?: Record<string, unknown> | null;
  at: Date;
  /**
   * false: the reporter's callback is not told of this change here. A rewarded resolve is told once its
   * reward is on chain (markPaid), and the reopening after a refunded reward answers a resolution the
   * reporter was never told of.
   */
  tellReporter?: false;
  /**
   * On a resolution: the owner's note for everyone but this report's reporter. The reports filed as "me too"
   * of it (duplicateOf) are resolved with it, with this note as their message (null: none).
   */
  publicNote?: string | null;
  /** On a "me too" report resolved with its known issue: that issue, which its callback names. */
  knownIssue?: string;
};

export const newEventId = () => `ev_${randomBytes(12).toString("base64url")}`;

/**
 * Adds changes to items' histories, and queues `feedback.status_changed` for each change of status;
 * call it in the transaction that makes the changes, so the history and the webhook commit with them.
 * Every path that changes a status records it here, so none can forget its webhook. The changes are
 * one owner action (`action`, a new one unless the caller queues more events for it).
 */
export async function recordEvents(db: DbOrTx, events: NewEvent[], action = newActionId()): Promise<void> {
  if (events.length === 0) return;
  await db.insert(feedbackEvents).values(
    events.map((e) => ({
      id: e.id ?? newEventId(),
      feedbackId: e.feedbackId,
      namespace: e.namespace,
      kind: e.kind,
      actor: e.actor,
      fromStatus: e.from ?? null,
      toStatus: e.to ?? null,
      message: e.message ?? null,
      details: e.details ?? null,
      createdAt: e.at,
    })),
  );
  await announceStatusChanges(db, events, action);
  await enqueueCallbacks(
    db,
    events.flatMap((e) => callbackEventOf(e) ?? []),
  );
  // Reports filed as "me too" of an issue resolved here are resolved with it. A rewarded resolve tells its
  // reporter once the reward is on chain (tellReporter false here): its "me too" reports wait for that too.
  await resolveMeToos(
    db,
    events.flatMap((e) =>
      e.tellReporter !== false && e.to === "resolved" && e.from !== "resolved" && !e.knownIssue
        ? [{ id: e.feedbackId, at: e.at, by: e.actor, note: e.publicNote ?? null }]
        : [],
    ),
    action,
  );
}

/** A known issue just resolved: when, by whom, and the owner's public note for its "me too" reporters. */
export type IssueResolution = { id: string; at: Date; by: string; note: string | null };

/**
 * Resolves the reports filed as "me too" of these issues (duplicateOf, still in the issue's group) with
 * them: each one not yet resolved, not spam and not held by a rewarded resolve gets the issue's resolution
 * with the owner's public note as its message (never the message written to the issue's own reporter, and
 * never a reward), its history entry, `report.resolved` naming the issue on its callback, and the owner's
 * `feedback.resolved`, in the caller's transaction.
 */
export async function resolveMeToos(db: DbOrTx, issues: IssueResolution[], action: string): Promise<void> {
  if (issues.length === 0) return;
  const byIssue = new Map(issues.map((i) => [i.id, i]));
  const reports = await db
    .select({
      id: feedback.id,
      namespace: feedback.namespace,
      status: feedback.status,
      issue: feedback.groupId,
    })
    .from(feedback)
    .where(
      and(
        inArray(feedback.groupId, [...byIssue.keys()]),
        isNotNull(feedback.duplicateOf),
        eq(feedback.resolved, false),
        ne(feedback.status, "spam"),
        isNull(feedback.resolvingPaymentId),
      ),
    )
    .orderBy(asc(feedback.id))
    .for("update");
  if (reports.length === 0) return;
  for (const issue of byIssue.values()) {
    const ids = reports.filter((r) => r.issue === issue.id).map((r) => r.id);
    if (ids.length === 0) continue;
    await db
      .update(feedback)
      .set({
        status: "resolved",
        resolved: true,
        resolvedAt: issue.at,
        resolvedBy: issue.by,
        resolveMessage: issue.note,
      })
      .where(inArray(feedback.id, ids));
  }
  const events = reports.map((r) => {
    const issue = byIssue.get(r.issue!)!;
    return {
      feedbackId: r.id,
      namespace: r.namespace,
      kind: "status" as const,
      actor: issue.by,
      from: r.status,
      to: "resolved" as const,
      message: issue.note,
      details: { knownIssue: issue.id },
      at: issue.at,
      knownIssue: issue.id,
    };
  });
  await recordEvents(db, events, action);
  const byNamespace = new Map<string, typeof events>();
  for (const e of events) byNamespace.set(e.namespace, [...(byNamespace.get(e.namespace) ?? []), e]);
  for (const [namespace, resolved] of byNamespace) {
    await enqueueWebhooks(
      db,
      namespace,
      "feedback.resolved",
      resolved.map((e) => ({
        id: e.feedbackId,
        namespace,
        resolvedAt: e.at.toISOString(),
        resolvedBy: e.actor,
        message: e.message,
        rewardAmount: null,
      })),
      { action },
    );
  }
}

/** What a change tells the reporter's callback, if anything: its report's status, resolution or merge. */
function callbackEventOf(e: NewEvent): CallbackEvent | null {
  if (e.tellReporter === false) return null;
  const report = { id: e.feedbackId, namespace: e.namespace };
  const at = e.at.toISOString();
  const message = e.message ?? null;
  if (e.kind === "merged") return { type: "report.merged", data: { ...report, mergedAt: at } };
  if (!e.from || !e.to || e.from === e.to) return null;
  if (!["status", "follow_up", "confirmation"].includes(e.kind)) return null;
  if (e.to === "resolved") {
    const knownIssue = e.knownIssue ? { knownIssue: e.knownIssue } : {};
    return {
      type: "report.resolved",
      data: { ...report, status: "resolved", resolvedAt: at, message, reward: null, ...knownIssue },
    };
  }
  if (e.from === "resolved") {
    return {
      type: "report.reopened",
      data: { ...report, status: e.to, previousStatus: "resolved", reopenedAt: at, message },
    };
  }
  return {
    type: "report.status_changed",
    data: {
      ...report,
      status: e.to,
      previousStatus: e.from,
      changedAt: at,
      message,
      ...(e.to === "needs_info" && message !== null ? { question: message } : {}),
    },
  };
}

async function announceStatusChanges(db: DbOrTx, events: NewEvent[], action: string) {
  const byNamespace = new Map<string, NewEvent[]>();
  for (const e of events) {
    if (!e.from || !e.to || e.from === e.to) continue;
    byNamespace.set(e.namespace, [...(byNamespace.get(e.namespace) ?? []), e]);
  }
  for (const [namespace, changes] of byNamespace) {
    await enqueueWebhooks(
      db,
      namespace,
      "feedback.status_changed",
      changes.map((e) => ({
        id: e.feedbackId,
        namespace,
        from: e.from!,
        to: e.to!,
        message: e.message ?? null,
        changedBy: e.actor,
        changedAt: e.at.toISOString(),
      })),
      { action },
    );
  }
}

/** The histories of the given items, oldest change first, by item id (one query for a page). */
export async function historiesOf(db: DbOrTx, ids: string[]): Promise<Map<string, HistoryEntry[]>> {
  const byItem = new Map<string, HistoryEntry[]>(ids.map((id) => [id, []]));
  if (ids.length === 0) return byItem;
  const rows = await db
    .select()
    .from(feedbackEvents)
    .where(inArray(feedbackEvents.feedbackId, ids))
    .orderBy(asc(feedbackEvents.feedbackId), asc(feedbackEvents.createdAt), asc(feedbackEvents.id));
  for (const row of rows) {
    byItem.get(row.feedbackId)?.push({
      at: row.createdAt.toISOString(),
      kind: row.kind,
      actor: row.actor,
      from: row.fromStatus,
      to: row.toStatus,
      message: row.message,
      details: row.details,
    });
  }
  return byItem;
}
