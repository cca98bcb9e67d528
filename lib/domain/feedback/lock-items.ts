import "server-only";
import { and, eq, inArray } from "drizzle-orm";
import type { DbOrTx } from "@/lib/db/client";
import { feedback } from "@/lib/db/schema";
import { AppError } from "@/lib/http/errors";

/**
 * Locks the named items of a namespace for a change that is all or none, and refuses the change,
 * naming each field, when any of them is not an item of that namespace. `fieldOf(i)` names the
 * request field that carried the i-th id.
 */
export async function lockItems(
  tx: DbOrTx,
  namespace: string,
  ids: readonly string[],
  fieldOf: (i: number) => string,
) {
  const rows = await tx
    .select({
      id: feedback.id,
      status: feedback.status,
      held: feedback.resolvingPaymentId,
      groupId: feedback.groupId,
      labels: feedback.labels,
    })
    .from(feedback)
    .where(and(eq(feedback.namespace, namespace), inArray(feedback.id, [...ids])))
    .for("update");
  const found = new Map(rows.map((r) => [r.id, r]));
  const missing = ids.flatMap((id, i) => (found.has(id) ? [] : [i]));
  if (missing.length > 0) {
    throw new AppError(
      "feedback-not-found",
      `${missing.length === 1 ? "One item is" : `${missing.length} items are`} not in the namespace "${namespace}"; nothing was changed.`,
      { errors: missing.map((i) => ({ field: fieldOf(i), message: "is not an item of this namespace" })) },
    );
  }
  return found;
}

/** Refuses a change, naming each field, when a rewarded resolve in flight holds any of the items. */
export function refuseHeld(
  ids: readonly string[],
  found: Map<string, { held: string | null }>,
  fieldOf: (i: number) => string,
) {
  const held = ids.flatMap((id, i) => (found.get(id)?.held ? [i] : []));
  if (held.length === 0) return;
  throw new AppError(
    "item-held",
    "A rewarded resolve is being paid for some of these items; nothing was changed. Try again once it has finished.",
    {
      errors: held.map((i) => ({ field: fieldOf(i), message: "is held by a rewarded resolve" })),
      headers: { "retry-after": "30" },
    },
  );
}
