import "server-only";
import { eq } from "drizzle-orm";
import { type Who, whoOf } from "@/lib/auth/identity";
import { type DbOrTx, getDb } from "@/lib/db/client";
import { feedback } from "@/lib/db/schema";
import { requireAccess } from "@/lib/domain/namespace/require-access";
import { validationError } from "@/lib/http/errors";
import { type ChangeLabelsInput, MAX_LABELS } from "@/lib/schemas/triage";
import { recordEvents } from "./history";
import { SEEN_BY_OWNER } from "./known-listing";
import { lockItems } from "./lock-items";

/**
 * The owner labels items: adds and removes labels on up to 100 items at once, all or none. An item
 * whose labels do not change is left as it is; each that changes gets a history entry.
 */
export async function changeLabels(who: Who, input: ChangeLabelsInput, db?: DbOrTx) {
  const wallet = whoOf(who).address;
  db ??= await getDb();
  await requireAccess(who, input.namespace, "triage", db);
  return db.transaction(async (tx) => {
    const found = await lockItems(tx, input.namespace, input.feedbackIds, (i) => `feedbackIds.${i}`);
    const drop = new Set(input.remove);
    const next = input.feedbackIds.map((id) => {
      const before = found.get(id)!.labels;
      const after = [...new Set([...before, ...input.add])].filter((l) => !drop.has(l)).sort();
      return { id, before, after };
    });
    const over = next.findIndex((n) => n.after.length > MAX_LABELS);
    if (over >= 0) {
      throw validationError([
        { field: "add", message: `would give ${next[over]!.id} more than ${MAX_LABELS} labels` },
      ]);
    }
    const changing = next.filter((n) => n.after.join("\n") !== [...n.before].sort().join("\n"));
    const at = new Date();
    // Labelling is triage: the owner has seen the item, which may be listed as a known issue now.
    for (const n of changing) {
      await tx
        .update(feedback)
        .set({ labels: n.after, ...SEEN_BY_OWNER })
        .where(eq(feedback.id, n.id));
    }
    await recordEvents(
      tx,
      changing.map((n) => ({
        feedbackId: n.id,
        namespace: input.namespace,
        kind: "labels" as const,
        actor: wallet,
        details: {
          added: n.after.filter((l) => !n.before.includes(l)),
          removed: n.before.filter((l) => !n.after.includes(l)),
        },
        at,
      })),
    );
    return {
      namespace: input.namespace,
      changed: changing.map((n) => ({ id: n.id, labels: n.after })),
      unchanged: next.filter((n) => !changing.includes(n)).map((n) => n.id),
    };
  });
}
