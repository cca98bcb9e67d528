import "server-only";
import { and, eq, inArray, isNull } from "drizzle-orm";
import { type DbOrTx, getDb } from "@/lib/db/client";
import { feedback } from "@/lib/db/schema";
import { requireOwner } from "@/lib/domain/namespace/require-owner";
import { AppError } from "@/lib/http/errors";
import type { FeedbackStatus } from "@/lib/schemas/feedback";
import type { ChangeStatusInput } from "@/lib/schemas/triage";
import { enqueueWebhook } from "@/lib/webhooks/outbox";
import { recordEvents } from "./history";

/** The contract's resolution fields for an item entering `status`: set for resolved, cleared otherwise. */
export function resolutionFor(status: FeedbackStatus, wallet: string, message: string | null, at: Date) {
  return status === "resolved"
    ? { status, resolved: true, resolvedAt: at, resolvedBy: wallet, resolveMessage: message }
    : { status, resolved: false, resolvedAt: null, resolvedBy: null, resolveMessage: null };
}

/**
 * The owner's triage: one status (and message) for one or many items of a namespace, all or none.
 * An item already in that status is left as it is; every other one changes, with an entry in its
 * history, and an item resolved here gets its `feedback.resolved` webhook as a free resolve does. Moving
 * a resolved item to any other status reopens it (the contract's resolution fields are cleared; a
 * reward paid stays recorded). An item a rewarded resolve holds cannot change until that payment ends.
 */
export async function changeStatus(wallet: string, input: ChangeStatusInput, db?: DbOrTx) {
  db ??= await getDb();
  await requireOwner(wallet, input.namespace, db);
  return db.transaction(async (tx) => {
    const rows = await tx
      .select({ id: feedback.id, status: feedback.status, held: feedback.resolvingPaymentId })
      .from(feedback)
      .where(and(eq(feedback.namespace, input.namespace), inArray(feedback.id, input.feedbackIds)))
      .for("update");
    const found = new Map(rows.map((r) => [r.id, r]));
    const missing = input.feedbackIds.flatMap((id, i) => (found.has(id) ? [] : [i]));
    if (missing.length > 0) {
      throw new AppError(
        "feedback-not-found",
        `${missing.length === 1 ? "One item is" : `${missing.length} items are`} not in the namespace "${input.namespace}"; nothing was changed.`,
        {
          errors: missing.map((i) => ({
            field: `feedbackIds.${i}`,
            message: "is not an item of this namespace",
          })),
        },
      );
    }
    const held = input.feedbackIds.flatMap((id, i) => (found.get(id)?.held ? [i] : []));
    if (held.length > 0) {
      throw new AppError(
        "item-held",
        "A rewarded resolve is being paid for some of these items; nothing was changed. Try again once it has finished.",
        {
          errors: held.map((i) => ({ field: `feedbackIds.${i}`, message: "is held by a rewarded resolve" })),
          headers: { "retry-after": "30" },
        },
      );
    }
    const changing = input.feedbackIds.map((id) => found.get(id)!).filter((r) => r.status !== input.status);
    const at = new Date();
    if (changing.length > 0) {
      await tx
        .update(feedback)
        .set(resolutionFor(input.status, wallet, input.message, at))
        .where(
          and(
            inArray(
              feedback.id,
              changing.map((r) => r.id),
            ),
            isNull(feedback.resolvingPaymentId),
          ),
        );
      await recordEvents(
        tx,
        changing.map((r) => ({
          feedbackId: r.id,
          namespace: input.namespace,
          kind: "status" as const,
          actor: wallet,
          from: r.status,
          to: input.status,
          message: input.message,
          at,
        })),
      );
      if (input.status === "resolved") {
        for (const r of changing) {
          await enqueueWebhook(tx, input.namespace, "feedback.resolved", {
            id: r.id,
            namespace: input.namespace,
            resolvedAt: at.toISOString(),
            resolvedBy: wallet,
            message: input.message,
            rewardAmount: null,
          });
        }
      }
    }
    return {
      namespace: input.namespace,
      status: input.status,
      changedAt: at.toISOString(),
      changed: changing.map((r) => ({ id: r.id, from: r.status })),
      unchanged: input.feedbackIds.filter((id) => found.get(id)?.status === input.status),
    };
  });
}
