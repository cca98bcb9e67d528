import "server-only";
import { and, desc, getTableColumns, type SQL, sql } from "drizzle-orm";
import type { DbOrTx } from "@/lib/db/client";
import { feedback } from "@/lib/db/schema";
import {
  decodeCursor,
  decodeOffsetCursor,
  encodeCursor,
  encodeOffsetCursor,
} from "@/lib/domain/shared/cursor";

// Every column an item is presented from; the search document stays in the database.
const { search: _search, ...itemColumns } = getTableColumns(feedback);

export { itemColumns };
export type ItemRow = Omit<typeof feedback.$inferSelect, "search">;

export type PageQuery = {
  where: SQL[];
  limit: number;
  cursor?: string;
  scope: string;
  /** Order by this score, best first, instead of newest first (search by relevance). */
  rank?: SQL<number>;
  /** Extra columns computed per row of the page (search highlights). */
  extra?: Record<string, SQL<string | null>>;
};

/**
 * The SQL of one page, limit + 1 rows (unexecuted: `npm run bench` EXPLAINs exactly this). Newest
 * first is a keyset page: its cost depends on the limit, never on how deep the page is. By rank, the
 * order has no stable key, so the cursor counts the rows already given.
 */
export function pageSelect(db: DbOrTx, query: PageQuery) {
  const where = [...query.where];
  const columns = { ...itemColumns, ...query.extra };
  if (query.rank) {
    const offset = query.cursor ? decodeOffsetCursor(query.cursor, query.scope) : 0;
    return db
      .select(columns)
      .from(feedback)
      .where(and(...where))
      .orderBy(desc(query.rank), sql`${feedback.createdAt} desc`, sql`${feedback.id} desc`)
      .limit(query.limit + 1)
      .offset(offset);
  }
  if (query.cursor) {
    const at = decodeCursor(query.cursor, query.scope);
    where.push(
      sql`(${feedback.createdAt}, ${feedback.id}) < (${at.createdAt.toISOString()}::timestamptz, ${at.id})`,
    );
  }
  return (
    db
      .select(columns)
      .from(feedback)
      .where(and(...where))
      // NULLS LAST to match the indexes exactly (drizzle's .desc() builds them so): with the default
      // NULLS FIRST, PostgreSQL cannot read the index in order and sorts every matching row instead.
      .orderBy(sql`${feedback.createdAt} desc nulls last`, sql`${feedback.id} desc nulls last`)
      .limit(query.limit + 1)
  );
}

/** One page: reads limit + 1 rows to know whether more remain. */
export async function pageOf<Extra extends Record<string, unknown> = Record<string, never>>(
  db: DbOrTx,
  query: PageQuery,
): Promise<{ rows: (ItemRow & Extra)[]; nextCursor?: string }> {
  const rows = (await pageSelect(db, query)) as (ItemRow & Extra)[];
  const more = rows.length > query.limit;
  const page = more ? rows.slice(0, query.limit) : rows;
  const last = page.at(-1);
  if (!more || !last) return { rows: page };
  if (query.rank) {
    const offset = query.cursor ? decodeOffsetCursor(query.cursor, query.scope) : 0;
    return { rows: page, nextCursor: encodeOffsetCursor(offset + page.length, query.scope) };
  }
  return { rows: page, nextCursor: encodeCursor(last, query.scope) };
}
