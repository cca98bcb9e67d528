import "server-only";
import { and, asc, eq, inArray, isNull } from "drizzle-orm";
import type { Who } from "@/lib/auth/identity";
import { type DbOrTx, getDb } from "@/lib/db/client";
import { webhookDeliveries as d } from "@/lib/db/schema";
import { requireAccess } from "@/lib/domain/namespace/require-access";
import { AppError } from "@/lib/http/errors";
import type { ResendDeliveryInput } from "@/lib/schemas/webhook";
import { newActionId } from "@/lib/webhooks/outbox";
import { newMessageId } from "@/lib/webhooks/sign";

/**
 * Queues a failed (or delivered) delivery again, as a new delivery with the same event and body, a
 * new webhook-id and a link to the original; sent in the namespace's current format. The original is
 * marked by a conditional update, so two clicks at once queue one copy and the other gets a 409. A
 * chat message that carried one action's events is copied whole: the events folded into it as well.
 */
export async function resendWebhookDelivery(who: Who, input: ResendDeliveryInput, db?: DbOrTx) {
  db ??= await getDb();
  const row = await requireAccess(who, input.namespace, "webhook", db);
  if (!row.webhookUrl) {
    throw new AppError(
      "webhook-not-configured",
      `The namespace "${input.namespace}" has no webhook URL; set one first.`,
    );
  }
  const id = newMessageId();
  const original = await db.transaction(async (tx) => {
    const [marked] = await tx
      .update(d)
      .set({ resentAs: id })
      .where(
        and(
          eq(d.id, input.id),
          eq(d.namespace, input.namespace),
          isNull(d.callbackFor),
          inArray(d.status, ["delivered", "failed"]),
          isNull(d.resentAs),
        ),
      )
      .returning({ eventType: d.eventType, payload: d.payload, actionId: d.actionId });
    if (!marked) return undefined;
    const action = marked.actionId ? newActionId() : null;
    await tx
      .insert(d)
      .values({ id, namespace: input.namespace, ...marked, actionId: action, resentFrom: input.id });
    const folded = await tx
      .select({ eventType: d.eventType, payload: d.payload })
      .from(d)
      .where(and(eq(d.foldedInto, input.id), eq(d.status, "folded")))
      .orderBy(asc(d.createdAt), asc(d.id));
    if (folded.length > 0) {
      const copies = folded.map((one) => ({ ...one, id: newMessageId(), actionId: action, foldedInto: id }));
      await tx
        .insert(d)
        .values(copies.map((c) => ({ ...c, namespace: input.namespace, status: "folded" as const })));
    }
    return marked;
  });
  if (!original) throw await whyNot(db, input);
  return {
    namespace: input.namespace,
    id,
    resentFrom: input.id,
    eventType: original.eventType,
    status: "pending" as const,
  };
}

/** The refusal for a delivery that was not re-sent: unknown, still pending, part of another, or re-sent already. */
async function whyNot(db: DbOrTx, input: ResendDeliveryInput): Promise<AppError> {
  const [found] = await db
    .select({ status: d.status, resentAs: d.resentAs, foldedInto: d.foldedInto })
    .from(d)
    .where(and(eq(d.id, input.id), eq(d.namespace, input.namespace), isNull(d.callbackFor)));
  if (!found) {
    return new AppError(
      "delivery-not-found",
      `No delivery "${input.id}" in the namespace "${input.namespace}".`,
      {
        errors: [{ field: "id", message: "is not a delivery of this namespace" }],
      },
    );
  }
  if (found.status === "folded") {
    return new AppError(
      "delivery-not-resendable",
      `The event "${input.id}" was sent in the message of "${found.foldedInto}"; re-send that one.`,
    );
  }
  return new AppError(
    "delivery-not-resendable",
    found.resentAs
      ? `The delivery "${input.id}" was already re-sent, as "${found.resentAs}".`
      : `The delivery "${input.id}" is still being sent; it can be re-sent once it is delivered or failed.`,
  );
}
