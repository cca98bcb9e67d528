import "server-only";
import { and, eq, inArray, isNull } from "drizzle-orm";
import type { DbOrTx } from "@/lib/db/client";
import { feedback } from "@/lib/db/schema";
import { validationError } from "@/lib/http/errors";
import type { FeedbackStatus } from "@/lib/schemas/feedback";
import { enqueueWebhook, type QueueOptions } from "@/lib/webhooks/outbox";
import { recordEvents } from "./history";
import { SEEN_BY_OWNER } from "./known-listing";
import { lockItems, refuseHeld } from "./lock-items";

/**
 * The contract's resolution fields for an item entering `status`, with the owner's public note: set for
 * resolved, cleared otherwise.
 */
export function resolutionFor(
  status: FeedbackStatus,
  wallet: string,
  message: string | null,
  at: Date,
  publicNote: string | null = null,
) {
  return status === "resolved"
    ? { status, resolved: true, resolvedAt: at, resolvedBy: wallet, resolveMessage: message, publicNote }
    : { status, resolved: false, resolvedAt: null, resolvedBy: null, resolveMessage: null, publicNote: null };
}

/** Queues an item's `feedback.resolved` event, in the transaction that resolves it, for its action. */
export function announceResolved(
  tx: DbOrTx,
  item: { id: string; namespace: string },
  resolution: { at: Date; by: string; message: string | null; rewardAmount?: string | null },
  queue: QueueOptions,
) {
  return enqueueWebhook(
    tx,
    item.namespace,
    "feedback.resolved",
    {
      id: item.id,
      namespace: item.namespace,
      resolvedAt: resolution.at.toISOString(),
      resolvedBy: resolution.by,
      message: resolution.message,
      rewardAmount: resolution.rewardAmount ?? null,
    },
    queue,
  );
}

/**
 * Checks the other items a resolve names (alsoResolve) before anything changes or is charged: each is
 * an item of the namespace other than the one resolved, and none is held by a rewarded resolve.
 */
export async function checkAlsoResolve(
  db: DbOrTx,
  item: { id: string; namespace: string },
  ids: readonly string[],
) {
  if (ids.includes(item.id)) {
    throw validationError([
      { field: `alsoResolve.${ids.indexOf(item.id)}`, message: "must not name feedbackId itself" },
    ]);
  }
  if (ids.length === 0) return;
  const field = (i: number) => `alsoResolve.${i}`;
  refuseHeld(ids, await lockItems(db, item.namespace, ids, field), field);
}

/**
 * Resolves the other items named with a resolve of `item` (alsoResolve): each still open and not held by a
 * rewarded resolve gets the same resolution, history entry and `feedback.resolved` event, never a reward.
 * Call it in the transaction that resolves `item`.
 */
export async function resolveAlso(
  tx: DbOrTx,
  item: { id: string; namespace: string },
  ids: readonly string[],
  resolver: string,
  resolution: { message: string | null; publicNote: string | null },
  at: Date,
  action: string,
): Promise<string[]> {
  const { message, publicNote } = resolution;
  if (ids.length === 0) return [];
  const open = await tx
    .select({ id: feedback.id, status: feedback.status })
    .from(feedback)
    .where(
      and(
        eq(feedback.namespace, item.namespace),
        inArray(feedback.id, [...ids]),
        eq(feedback.resolved, false),
        isNull(feedback.resolvingPaymentId),
      ),
    )
    .for("update");
  if (open.length === 0) return [];
  await tx
    .update(feedback)
    .set({ ...resolutionFor("resolved", resolver, message, at, publicNote), ...SEEN_BY_OWNER })
    .where(
      inArray(
        feedback.id,
        open.map((o) => o.id),
      ),
    );
  await recordEvents(
    tx,
    open.map((o) => ({
      feedbackId: o.id,
      namespace: item.namespace,
      kind: "status" as const,
      actor: resolver,
      from: o.status,
      to: "resolved" as const,
      message,
      details: { withResolveOf: item.id },
      at,
      publicNote,
    })),
    action,
  );
  for (const o of open) {
    await announceResolved(
      tx,
      { id: o.id, namespace: item.namespace },
      { at, by: resolver, message },
      { action },
    );
  }
  return open.map((o) => o.id);
}
