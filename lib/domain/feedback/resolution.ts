import "server-only";
import { and, eq, inArray, isNull } from "drizzle-orm";
import type { DbOrTx } from "@/lib/db/client";
import { feedback } from "@/lib/db/schema";
import type { FeedbackStatus } from "@/lib/schemas/feedback";
import { enqueueWebhook } from "@/lib/webhooks/outbox";
import { groupSiblings } from "./groups";
import { recordEvents } from "./history";

/** The contract's resolution fields for an item entering `status`: set for resolved, cleared otherwise. */
export function resolutionFor(status: FeedbackStatus, wallet: string, message: string | null, at: Date) {
  return status === "resolved"
    ? { status, resolved: true, resolvedAt: at, resolvedBy: wallet, resolveMessage: message }
    : { status, resolved: false, resolvedAt: null, resolvedBy: null, resolveMessage: null };
}

/**
 * Resolving one report resolves its whole group of duplicates: every other open report of the group
 * (not one a rewarded resolve holds) gets the same resolution, its history entry and its
 * `feedback.resolved` event, so each submitter sees the answer. No reward: a reward goes to the one
 * report the owner resolved with it. Call it in the transaction that resolves `item`.
 */
export async function resolveSiblings(
  tx: DbOrTx,
  item: { id: string; groupId: string | null; namespace: string },
  resolver: string,
  message: string | null,
  at: Date,
): Promise<string[]> {
  const siblings = await groupSiblings(tx, item.id, item.groupId);
  if (siblings.length === 0) return [];
  const resolved = await tx
    .update(feedback)
    .set(resolutionFor("resolved", resolver, message, at))
    .where(
      and(
        inArray(
          feedback.id,
          siblings.map((s) => s.id),
        ),
        eq(feedback.resolved, false),
        isNull(feedback.resolvingPaymentId),
      ),
    )
    .returning({ id: feedback.id });
  const done = new Set(resolved.map((r) => r.id));
  const changed = siblings.filter((s) => done.has(s.id));
  await recordEvents(
    tx,
    changed.map((s) => ({
      feedbackId: s.id,
      namespace: item.namespace,
      kind: "status" as const,
      actor: resolver,
      from: s.status,
      to: "resolved" as const,
      message,
      details: { withGroupOf: item.id },
      at,
    })),
  );
  for (const s of changed) {
    await enqueueWebhook(tx, item.namespace, "feedback.resolved", {
      id: s.id,
      namespace: item.namespace,
      resolvedAt: at.toISOString(),
      resolvedBy: resolver,
      message,
      rewardAmount: null,
    });
  }
  return changed.map((s) => s.id);
}
