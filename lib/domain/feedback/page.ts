import "server-only";
import { and, type SQL, sql } from "drizzle-orm";
import type { DbOrTx } from "@/lib/db/client";
import { feedback } from "@/lib/db/schema";
import { decodeCursor, encodeCursor } from "@/lib/domain/shared/cursor";

type Row = typeof feedback.$inferSelect;

export type PageQuery = { where: SQL[]; limit: number; cursor?: string; scope: string };

/**
 * The SQL of one newest-first keyset page, limit + 1 rows (unexecuted: `npm run bench` EXPLAINs exactly
 * this). The cost of a page depends on the limit, never on how deep the page is.
 */
export function pageSelect(db: DbOrTx, query: PageQuery) {
  const where = [...query.where];
  if (query.cursor) {
    const at = decodeCursor(query.cursor, query.scope);
    where.push(
      sql`(${feedback.createdAt}, ${feedback.id}) < (${at.createdAt.toISOString()}::timestamptz, ${at.id})`,
    );
  }
  return (
    db
      .select()
      .from(feedback)
      .where(and(...where))
      // NULLS LAST to match the indexes exactly (drizzle's .desc() builds them so): with the default
      // NULLS FIRST, PostgreSQL cannot read the index in order and sorts every matching row instead.
      .orderBy(sql`${feedback.createdAt} desc nulls last`, sql`${feedback.id} desc nulls last`)
      .limit(query.limit + 1)
  );
}

/** One newest-first keyset page: reads limit + 1 rows to know whether more remain. */
export async function pageOf(db: DbOrTx, query: PageQuery): Promise<{ rows: Row[]; nextCursor?: string }> {
  const rows = await pageSelect(db, query);
  const more = rows.length > query.limit;
  const page = more ? rows.slice(0, query.limit) : rows;
  const last = page.at(-1);
  return { rows: page, nextCursor: more && last ? encodeCursor(last, query.scope) : undefined };
}
