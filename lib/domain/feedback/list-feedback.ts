import "server-only";
import { eq, ilike, or, type SQL } from "drizzle-orm";
import { type DbOrTx, getDb } from "@/lib/db/client";
import { feedback } from "@/lib/db/schema";
import { requireOwner } from "@/lib/domain/namespace/require-owner";
import type { ListQuery } from "@/lib/schemas/list";
import { pageOf } from "./page";
import { presentListItem } from "./present";

/** A LIKE pattern that matches `text` literally anywhere (backslash is Postgres's default escape). */
function containing(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** The filters and cursor scope of an inbox query (exported for the benchmark's query plans). */
export function inboxFilter(query: ListQuery): { where: SQL[]; scope: string } {
  const where: SQL[] = [eq(feedback.namespace, query.namespace)];
  if (query.type) where.push(eq(feedback.type, query.type));
  if (query.severity) where.push(eq(feedback.severity, query.severity));
  if (query.resolved !== undefined) where.push(eq(feedback.resolved, query.resolved));
  if (query.q) {
    const pattern = containing(query.q);
    where.push(or(ilike(feedback.title, pattern), ilike(feedback.description, pattern))!);
  }
  // Every filter is part of the scope, so a cursor from one query is refused by any other. The free
  // text comes last, after a fixed number of fields, so no two queries share a scope string.
  const resolved = query.resolved === undefined ? "" : String(query.resolved);
  const scope = `list\n${query.namespace}\n${query.type ?? ""}\n${query.severity ?? ""}\n${resolved}\n${query.q ?? ""}`;
  return { where, scope };
}

/** The owner's inbox: a namespace's feedback, newest first, optionally filtered and searched. */
export async function listFeedback(wallet: string, query: ListQuery, db?: DbOrTx) {
  db ??= await getDb();
  await requireOwner(db, query.namespace, wallet);
  const page = await pageOf(db, { ...inboxFilter(query), limit: query.limit, cursor: query.cursor });
  return {
    namespace: query.namespace,
    count: page.rows.length,
    feedback: page.rows.map(presentListItem),
    ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}),
  };
}
