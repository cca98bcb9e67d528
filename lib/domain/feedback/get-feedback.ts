import "server-only";
import { and, asc, eq, ne, or, sql } from "drizzle-orm";
import { isHolder, type Who } from "@/lib/auth/identity";
import { may } from "@/lib/auth/roles";
import { type DbOrTx, getDb } from "@/lib/db/client";
import { feedback, namespaces } from "@/lib/db/schema";
import { roleIn } from "@/lib/domain/namespace/require-access";
import { AppError } from "@/lib/http/errors";
import { historiesOf } from "./history";
import { recordColumns } from "./page";
import { presentRecord } from "./present";

export const feedbackNotFound = (id: string) =>
  new AppError("feedback-not-found", `No feedback item has the id "${id}".`, {
    errors: [{ field: "id", message: "does not exist" }],
  });

/**
 * The full record, for the owner of its namespace (with its group of duplicates) or for the wallet that
 * submitted it (its own report only).
 */
export async function getFeedback(who: Who, id: string, db?: DbOrTx) {
  db ??= await getDb();
  const [found] = await db
    .select({ item: recordColumns, owner: namespaces.ownerWallet, ownerOn: namespaces.ownerContractOn })
    .from(feedback)
    .leftJoin(namespaces, eq(namespaces.name, feedback.namespace))
    .where(eq(feedback.id, id))
    .limit(1);
  if (!found) throw feedbackNotFound(id);
  // The owner and every member read the team's view; a registered namespace's only.
  const role = found.owner === null ? null : (await roleIn(who, found.item.namespace, db)).role;
  const isTeam = role !== null && may(role, "read");
  if (!isTeam && !isHolder(who, found.item.submitterWallet, found.item.submitterContractOn)) {
    throw new AppError(
      "forbidden",
      "Only the namespace's owner, its members or the submitter can read this item.",
    );
  }
  const history = await historiesOf(db, [id]);
  if (!isTeam) return presentRecord(found.item, history.get(id) ?? [], null, found.owner);
  const head = found.item.groupId ?? id;
  const group = await db
    .select({
      id: feedback.id,
      title: feedback.title,
      status: feedback.status,
      groupKind: feedback.groupKind,
      submitterWallet: feedback.submitterWallet,
      meToo: sql<boolean>`${feedback.duplicateOf} is not null`,
      createdAt: feedback.createdAt,
    })
    .from(feedback)
    .where(and(or(eq(feedback.id, head), eq(feedback.groupId, head)), ne(feedback.id, id)))
    .orderBy(asc(feedback.createdAt), asc(feedback.id))
    .limit(100);
  return presentRecord(
    found.item,
    history.get(id) ?? [],
    group.map((g) => ({ ...g, createdAt: g.createdAt.toISOString() })),
    found.owner,
  );
}
