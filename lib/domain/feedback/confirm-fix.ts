import "server-only";
import { eq } from "drizzle-orm";
import { isHolder, type Who, whoOf } from "@/lib/auth/identity";
import { type DbOrTx, getDb } from "@/lib/db/client";
import { feedback } from "@/lib/db/schema";
import { AppError } from "@/lib/http/errors";
import type { ConfirmFixInput } from "@/lib/schemas/confirm";
import { enqueueWebhook, newActionId } from "@/lib/webhooks/outbox";
import { feedbackNotFound } from "./get-feedback";
import { recordEvents } from "./history";
import { resolutionFor } from "./resolution";

/**
 * The submitter's answer to a resolution of its report (POST /feedback/confirm), once per resolution:
 * `fixed` is recorded on the item; `not_fixed` reopens it with the note in its history. The owner's
 * webhook gets feedback.confirmed or feedback.disputed (with the reopening's feedback.status_changed). A reward stays as it was: paid once, and
 * a reopened item is never rewarded again (the payout ledger refuses a second reward).
 *
 * The item's row is locked for the answer, so two answers to one resolution, or an answer racing the
 * owner's reopen, are decided one after the other: the second is refused with 409, never applied twice.
 */
export async function confirmFix(who: Who, input: ConfirmFixInput, db?: DbOrTx) {
  const wallet = whoOf(who).address;
  db ??= await getDb();
  return db.transaction(async (tx) => {
    const [item] = await tx
      .select({
        namespace: feedback.namespace,
        status: feedback.status,
        resolved: feedback.resolved,
        resolvedAt: feedback.resolvedAt,
        held: feedback.resolvingPaymentId,
        submitter: feedback.submitterWallet,
        submitterOn: feedback.submitterContractOn,
        answered: feedback.confirmedResolutionAt,
      })
      .from(feedback)
      .where(eq(feedback.id, input.id))
      .for("update");
    if (!item) throw feedbackNotFound(input.id);
    if (!isHolder(who, item.submitter, item.submitterOn)) {
      throw new AppError(
        "forbidden",
        "Only the wallet that submitted this item can say whether its resolution fixed it.",
      );
    }
    if (!item.resolved || !item.resolvedAt || item.held) {
      throw new AppError(
        "not-resolved",
        `"${input.id}" is not resolved: a fix can be confirmed or disputed once the owner resolves the item.`,
      );
    }
    if (item.answered?.getTime() === item.resolvedAt.getTime()) {
      throw new AppError(
        "already-confirmed",
        `This resolution of "${input.id}" was already answered; each resolution takes one answer.`,
      );
    }
    const at = new Date();
    const answer = {
      confirmation: input.outcome,
      confirmationNote: input.note,
      confirmedAt: at,
      confirmedResolutionAt: item.resolvedAt,
    };
    const reopen = input.outcome === "not_fixed";
    await tx
      .update(feedback)
      .set(reopen ? { ...answer, ...resolutionFor("open", wallet, null, at) } : answer)
      .where(eq(feedback.id, input.id));
    const action = newActionId();
    await recordEvents(
      tx,
      [
        {
          feedbackId: input.id,
          namespace: item.namespace,
          kind: "confirmation",
          actor: wallet,
          from: reopen ? "resolved" : null,
          to: reopen ? "open" : null,
          message: input.note,
          details: { outcome: input.outcome },
          at,
        },
      ],
      action,
    );
    // The owner hears of the answer: one message with the reopening, for a chat format.
    await enqueueWebhook(
      tx,
      item.namespace,
      reopen ? "feedback.disputed" : "feedback.confirmed",
      {
        id: input.id,
        namespace: item.namespace,
        note: input.note,
        submitter: wallet,
        resolvedAt: item.resolvedAt.toISOString(),
        answeredAt: at.toISOString(),
      },
      { action },
    );
    return {
      id: input.id,
      namespace: item.namespace,
      outcome: input.outcome,
      status: reopen ? ("open" as const) : item.status,
      confirmedAt: at.toISOString(),
    };
  });
}
