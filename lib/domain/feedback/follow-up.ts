import "server-only";
import { and, eq } from "drizzle-orm";
import { isHolder } from "@/lib/auth/identity";
import { getDb } from "@/lib/db/client";
import { feedback } from "@/lib/db/schema";
import { AppError } from "@/lib/http/errors";
import { fulfilPayment } from "@/lib/payment/ledger";
import type { Caller, PaidContext, PaidWrite } from "@/lib/payment/types";
import type { FeedbackStatus } from "@/lib/schemas/feedback";
import type { FollowUpInput } from "@/lib/schemas/follow-up";
import { newWebhookSecret } from "@/lib/webhooks/sign";
import { assertCallbackAllowed } from "@/lib/webhooks/url-check";
import { feedbackNotFound } from "./get-feedback";
import { newEventId, recordEvents } from "./history";

/** The answer to a paid follow-up, stored in the ledger with it. */
export type FollowUpAnswer = {
  id: string;
  feedbackId: string;
  status: FeedbackStatus;
  createdAt: string;
  /** Only when the answer set a callback URL: the secret that signs its deliveries. */
  callbackSecret?: string;
};

const notSubmitter = () =>
  new AppError("forbidden", "Only the wallet that submitted this item can answer it; nothing was charged.");

/**
 * The paid write of a follow-up (POST /feedback/follow-up): the submitter answers an owner who asked
 * for more information. Refused before any charge unless the item exists, is waiting for information,
 * and the paying wallet is its submitter.
 */
export async function followUpWrite(
  input: FollowUpInput,
  caller: Caller,
): Promise<PaidWrite<FollowUpAnswer>> {
  const db = await getDb();
  const [item] = await db
    .select({
      status: feedback.status,
      submitter: feedback.submitterWallet,
      submitterOn: feedback.submitterContractOn,
    })
    .from(feedback)
    .where(eq(feedback.id, input.feedbackId))
    .limit(1);
  if (!item) throw feedbackNotFound(input.feedbackId);
  await assertCallbackAllowed(input.callbackUrl, { resolve: caller.paying });
  if (item.status !== "needs_info") {
    throw new AppError(
      "not-awaiting-info",
      `The owner has not asked for more information on "${input.feedbackId}"; nothing was charged. A new report is a new submission.`,
    );
  }
  return {
    input,
    authorize: async (payment) => {
      const payer = { address: payment.payer, contractOn: payment.payerContractOn };
      if (!isHolder(payer, item.submitter, item.submitterOn)) throw notSubmitter();
    },
    commit: (ctx) => commitFollowUp(input, ctx),
  };
}

/**
 * Stores a paid-for answer in the item's history and puts the item back in the owner's open items,
 * in one transaction with the ledger row's fulfilment. It was paid for, so it is stored even if the
 * owner moved the item on meanwhile; only then is the status left as the owner set it.
 */
export function commitFollowUp(input: FollowUpInput, ctx: PaidContext) {
  return ctx.db.transaction(async (tx) => {
    const at = new Date();
    const [reopened] = await tx
      .update(feedback)
      .set({ status: "open" })
      .where(and(eq(feedback.id, input.feedbackId), eq(feedback.status, "needs_info")))
      .returning({ namespace: feedback.namespace, status: feedback.status });
    const [item] = reopened
      ? [reopened]
      : await tx
          .select({ namespace: feedback.namespace, status: feedback.status })
          .from(feedback)
          .where(eq(feedback.id, input.feedbackId));
    if (!item) throw new Error(`item ${input.feedbackId} of a paid follow-up no longer exists`);
    const id = newEventId();
    const { feedbackId, message, callbackUrl, ...details } = input;
    // A callback sent with the answer replaces the item's, and hears of this change already.
    const callbackSecret = callbackUrl === null ? null : newWebhookSecret();
    if (callbackUrl !== null) {
      await tx.update(feedback).set({ callbackUrl, callbackSecret }).where(eq(feedback.id, feedbackId));
    }
    const added = Object.fromEntries(Object.entries(details).filter(([, v]) => v !== null));
    await recordEvents(tx, [
      {
        id,
        feedbackId,
        namespace: item.namespace,
        kind: "follow_up",
        actor: ctx.payer,
        from: reopened ? "needs_info" : null,
        to: reopened ? "open" : null,
        message,
        details: Object.keys(added).length ? added : null,
        at,
      },
    ]);
    const body: FollowUpAnswer = {
      id,
      feedbackId,
      status: item.status,
      createdAt: at.toISOString(),
      ...(callbackSecret === null ? {} : { callbackSecret }),
    };
    await fulfilPayment(tx, ctx, id, body);
    return { resultId: id, body };
  });
}
