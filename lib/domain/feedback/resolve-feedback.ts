import "server-only";
import { and, eq, isNull } from "drizzle-orm";
import { type Who, whoOf } from "@/lib/auth/identity";
import { type DbOrTx, getDb } from "@/lib/db/client";
import { feedback, namespaces } from "@/lib/db/schema";
import { requireAccess } from "@/lib/domain/namespace/require-access";
import { AppError } from "@/lib/http/errors";
import type { ResolveFeedbackInput } from "@/lib/schemas/resolve";
import { newActionId } from "@/lib/webhooks/outbox";
import { feedbackNotFound } from "./get-feedback";
import { recordEvents } from "./history";
import { SEEN_BY_OWNER } from "./known-listing";
import { announceResolved, checkAlsoResolve, resolutionFor, resolveAlso } from "./resolution";

export const alreadyResolved = (id: string) =>
  new AppError("already-resolved", `The feedback item "${id}" is already resolved.`);

/** An item with what deciding a resolve needs: its owner, its state and who would be rewarded. */
export async function loadResolveTarget(db: DbOrTx, id: string) {
  const [found] = await db
    .select({
      id: feedback.id,
      namespace: feedback.namespace,
      resolved: feedback.resolved,
      status: feedback.status,
      resolving: feedback.resolvingPaymentId,
      submitter: feedback.submitterWallet,
      submitterOn: feedback.submitterContractOn,
      owner: namespaces.ownerWallet,
      ownerOn: namespaces.ownerContractOn,
    })
    .from(feedback)
    .leftJoin(namespaces, eq(namespaces.name, feedback.namespace))
    .where(eq(feedback.id, id))
    .limit(1);
  if (!found) throw feedbackNotFound(id);
  return found;
}

/**
 * Whether `who` may resolve an item of `found`'s namespace with `permission`: an item of an unregistered
 * namespace has no owner, so nobody may (403, as for any other wallet that is not of its team).
 */
export async function requireResolver(
  db: DbOrTx,
  found: { namespace: string; owner: string | null },
  who: Who,
  permission: "triage" | "reward",
) {
  if (found.owner === null) {
    throw new AppError(
      "not-owner",
      `The namespace "${found.namespace}" is not registered: nobody may resolve its items.`,
    );
  }
  await requireAccess(who, found.namespace, permission, db);
}

/** Every check a free resolve must pass: exists, the caller may triage it (a triager or above), still open. */
async function assertResolvable(db: DbOrTx, id: string, who: Who) {
  const found = await loadResolveTarget(db, id);
  await requireResolver(db, found, who, "triage");
  if (found.resolved) throw alreadyResolved(id);
  return found;
}

/**
 * Resolves an item without a reward, and the other items named in alsoResolve (nothing else: not the
 * rest of its group); the conditional update makes a second resolve a 409.
 */
export async function resolveFeedback(who: Who, input: ResolveFeedbackInput, db?: DbOrTx) {
  db ??= await getDb();
  const item = await assertResolvable(db, input.feedbackId, who);
  const wallet = whoOf(who).address;
  const resolvedAt = new Date();
  // One action: chat formats announce the item and those resolved with it in one message.
  const action = newActionId();
  // The resolution and its webhook (outbox) commit together.
  const also = await db.transaction(async (tx) => {
    await checkAlsoResolve(tx, item, input.alsoResolve);
    const updated = await tx
      .update(feedback)
      .set({
        ...resolutionFor("resolved", wallet, input.message, resolvedAt, input.publicNote),
        ...SEEN_BY_OWNER,
      })
      // A paid resolve in flight holds the item (resolvingPaymentId): a free one must not slip in after it charged.
      .where(and(eq(feedback.id, item.id), eq(feedback.resolved, false), isNull(feedback.resolvingPaymentId)))
      .returning({ id: feedback.id });
    if (updated.length === 0) throw alreadyResolved(item.id);
    await recordEvents(
      tx,
      [
        {
          feedbackId: item.id,
          namespace: item.namespace,
          kind: "status",
          actor: wallet,
          from: item.status,
          to: "resolved",
          message: input.message,
          at: resolvedAt,
          publicNote: input.publicNote,
        },
      ],
      action,
    );
    await announceResolved(tx, item, { at: resolvedAt, by: wallet, message: input.message }, { action });
    const resolution = { message: input.message, publicNote: input.publicNote };
    return resolveAlso(tx, item, input.alsoResolve, wallet, resolution, resolvedAt, action);
  });
  return {
    id: item.id,
    namespace: item.namespace,
    resolved: true,
    resolvedAt: resolvedAt.toISOString(),
    resolvedBy: wallet,
    ...(input.message !== null ? { message: input.message } : {}),
    ...(input.alsoResolve.length > 0 ? { alsoResolved: also } : {}),
  };
}
