import "server-only";
import { and, eq, isNull, type SQL, sql } from "drizzle-orm";
import type { DbOrTx } from "@/lib/db/client";
import { param, prepared, withFlatRows } from "@/lib/db/prepared";
import { feedback } from "@/lib/db/schema";
import { decodeCursor } from "@/lib/domain/shared/cursor";
import { type ItemRow, itemColumns, pageFrom } from "./page";

/** The inbox's usual view: one namespace, newest first, with no filter but `grouped`. */
export type PlainPageQuery = {
  namespace: string;
  grouped: boolean;
  limit: number;
  cursor?: string;
  scope: string;
};

// The very SQL `pageSelect` writes for this view (same conditions, same order, so the same index), as
// prepared statements: building a query's SQL costs more CPU than the page's own index read.
function newestFirst(db: DbOrTx, view: { heads: boolean; after: boolean }) {
  const where: SQL[] = [eq(feedback.namespace, param("namespace"))];
  if (view.heads) where.push(isNull(feedback.groupId));
  if (view.after) {
    where.push(
      sql`(${feedback.createdAt}, ${feedback.id}) < (${param("at")}::timestamptz, ${param("id")}::text)`,
    );
  }
  return withFlatRows(
    db
      .select(itemColumns)
      .from(feedback)
      .where(and(...where))
      .orderBy(sql`${feedback.createdAt} desc nulls last`, sql`${feedback.id} desc nulls last`)
      .limit(sql.placeholder("rows"))
      .prepare(`inbox_page${view.heads ? "_heads" : ""}${view.after ? "_after" : ""}`),
  );
}

// All items or group heads only, each from the newest or after a cursor.
const statements = [false, true].flatMap((heads) =>
  [false, true].map((after) => prepared((db) => newestFirst(db, { heads, after }))),
);

/** A page of the usual view, read by a prepared statement; the same rows and cursors as `pageOf`. */
export async function plainPage(
  db: DbOrTx,
  query: PlainPageQuery,
): Promise<{ rows: ItemRow[]; nextCursor?: string }> {
  const at = query.cursor ? decodeCursor(query.cursor, query.scope) : undefined;
  const statement = statements[(query.grouped ? 2 : 0) + (at ? 1 : 0)]!;
  const rows = await statement(db).execute({
    namespace: query.namespace,
    rows: query.limit + 1,
    ...(at ? { at: at.createdAt.toISOString(), id: at.id } : {}),
  });
  return pageFrom(rows, query);
}
