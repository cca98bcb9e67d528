import "server-only";
import { and, inArray, isNull } from "drizzle-orm";
import { type DbOrTx, getDb } from "@/lib/db/client";
import { feedback } from "@/lib/db/schema";
import { requireOwner } from "@/lib/domain/namespace/require-owner";
import { AppError } from "@/lib/http/errors";
import type { ChangeStatusInput } from "@/lib/schemas/triage";
import { enqueueWebhook } from "@/lib/webhooks/outbox";
import { recordEvents } from "./history";
import { lockItems } from "./lock-items";
import { resolutionFor, resolveSiblings } from "./resolution";

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
    const found = await lockItems(tx, input.namespace, input.feedbackIds, (i) => `feedbackIds.${i}`);
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
          await resolveSiblings(
            tx,
            { id: r.id, groupId: r.groupId, namespace: input.namespace },
            wallet,
            input.message,
            at,
          );
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
