import "server-only";
import { and, inArray, isNull } from "drizzle-orm";
import { type Who, whoOf } from "@/lib/auth/identity";
import { type DbOrTx, getDb } from "@/lib/db/client";
import { feedback } from "@/lib/db/schema";
import { requireAccess } from "@/lib/domain/namespace/require-access";
import type { ChangeStatusInput } from "@/lib/schemas/triage";
import { newActionId } from "@/lib/webhooks/outbox";
import { recordEvents } from "./history";
import { SEEN_BY_OWNER } from "./known-listing";
import { lockItems, refuseHeld } from "./lock-items";
import { announceResolved, resolutionFor } from "./resolution";

/**
 * The owner's triage: one status (and message) for the items named, all or none, and for nothing else
 * (not the rest of their groups). Each item that changes gets a history entry (and `feedback.resolved`
 * when resolved); reopening clears the resolution but keeps a paid reward on record.
 */
export async function changeStatus(who: Who, input: ChangeStatusInput, db?: DbOrTx) {
  const wallet = whoOf(who).address;
  db ??= await getDb();
  await requireAccess(who, input.namespace, "triage", db);
  return db.transaction(async (tx) => {
    const found = await lockItems(tx, input.namespace, input.feedbackIds, (i) => `feedbackIds.${i}`);
    refuseHeld(input.feedbackIds, found, (i) => `feedbackIds.${i}`);
    const changing = input.feedbackIds.map((id) => found.get(id)!).filter((r) => r.status !== input.status);
    const at = new Date();
    // One action: chat formats announce all its changes in one message.
    const action = newActionId();
    if (changing.length > 0) {
      await tx
        .update(feedback)
        .set({ ...resolutionFor(input.status, wallet, input.message, at), ...SEEN_BY_OWNER })
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
        action,
      );
      if (input.status === "resolved") {
        for (const r of changing) {
          await announceResolved(
            tx,
            { id: r.id, namespace: input.namespace },
            { at, by: wallet, message: input.message },
            { action },
          );
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
