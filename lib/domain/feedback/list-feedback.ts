import "server-only";
import { eq } from "drizzle-orm";
import { type DbOrTx, getDb } from "@/lib/db/client";
import { feedback } from "@/lib/db/schema";
import { requireOwner } from "@/lib/domain/namespace/require-owner";
import type { ListQuery } from "@/lib/schemas/list";
import { pageOf } from "./page";
import { presentListItem } from "./present";

/** The owner's inbox: a namespace's feedback, newest first, optionally by type and severity. */
export async function listFeedback(wallet: string, query: ListQuery, db?: DbOrTx) {
  db ??= await getDb();
  await requireOwner(db, query.namespace, wallet);
  const where = [eq(feedback.namespace, query.namespace)];
  if (query.type) where.push(eq(feedback.type, query.type));
  if (query.severity) where.push(eq(feedback.severity, query.severity));
  const scope = `list\n${query.namespace}\n${query.type ?? ""}\n${query.severity ?? ""}`;
  const page = await pageOf(db, { where, limit: query.limit, cursor: query.cursor, scope });
  return {
    namespace: query.namespace,
    count: page.rows.length,
    feedback: page.rows.map(presentListItem),
    ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}),
  };
}
