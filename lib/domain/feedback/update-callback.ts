import "server-only";
import { eq } from "drizzle-orm";
import { isHolder, type Who } from "@/lib/auth/identity";
import { type DbOrTx, getDb } from "@/lib/db/client";
import { feedback } from "@/lib/db/schema";
import { AppError } from "@/lib/http/errors";
import type { UpdateCallbackInput } from "@/lib/schemas/callback";
import { newWebhookSecret } from "@/lib/webhooks/sign";
import { assertCallbackAllowed } from "@/lib/webhooks/url-check";
import { feedbackNotFound } from "./get-feedback";

/**
 * The reporter replaces its report's callback (with a new secret, answered once) or removes it
 * (PATCH /feedback/callback). Only the wallet that submitted the item; anyone else is refused without
 * learning whether a callback is set. Events already queued go to the callback as it is when sent.
 */
export async function updateCallback(who: Who, input: UpdateCallbackInput, db?: DbOrTx) {
  db ??= await getDb();
  const [item] = await db
    .select({ submitter: feedback.submitterWallet, submitterOn: feedback.submitterContractOn })
    .from(feedback)
    .where(eq(feedback.id, input.id))
    .limit(1);
  if (!item) throw feedbackNotFound(input.id);
  if (!isHolder(who, item.submitter, item.submitterOn)) {
    throw new AppError("forbidden", "Only the wallet that submitted this item can set its callback.");
  }
  await assertCallbackAllowed(input.callbackUrl);
  const callbackSecret = input.callbackUrl === null ? null : newWebhookSecret();
  await db
    .update(feedback)
    .set({ callbackUrl: input.callbackUrl, callbackSecret })
    .where(eq(feedback.id, input.id));
  return {
    id: input.id,
    callbackUrl: input.callbackUrl,
    ...(callbackSecret === null ? {} : { callbackSecret }),
  };
}
