import "server-only";
import { and, eq, getTableColumns, inArray, type SQL, sql } from "drizzle-orm";
import { unionAll } from "drizzle-orm/pg-core";
import type { DbOrTx } from "@/lib/db/client";
import { feedback } from "@/lib/db/schema";
import {
  decodeCursor,
  decodeOffsetCursor,
  encodeCursor,
  encodeOffsetCursor,
} from "@/lib/domain/shared/cursor";

// Every column a list, status or export item is presented from. The search document stays in the
// database, and so does the context (up to 50,000 characters, shown only on an item's own page): a
// page of 50 items would otherwise read and drop megabytes. A reporter's callback is never read into a view.
const {
  callbackUrl: _callbackUrl,
  callbackSecret: _callbackSecret,
  search: _search,
  context: _context,
  alikeSpecifics: _specifics,
  alikeWords: _words,
  ...itemColumns
} = getTableColumns(feedback);

/** An item's own page reads its context too. */
export const recordColumns = { ...itemColumns, context: feedback.context };

export { itemColumns };
export type ItemRow = Omit<
  typeof feedback.$inferSelect,
  "search" | "context" | "alikeSpecifics" | "alikeWords" | "callbackUrl" | "callbackSecret"
>;
export type RecordRow = ItemRow & { context: string | null };

export type PageQuery = {
  where: SQL[];
  limit: number;
  cursor?: string;
  scope: string;
  /** Order by this score, best first, instead of newest first (search by relevance). */
  rank?: SQL<number>;
  /** Extra columns computed per row of the page (search highlights). */
  extra?: Record<string, SQL<string | null>>;
  /** A search condition, kept apart from `where` so the page can pick how to find its matches. */
  match?: SQL;
  /** Rank only this many of the newest matches (search by relevance), so a page costs the same at any size. */
  rankWindow?: number;
  /**
   * The status filter (already in `where`) when it names several. A newest-first page then reads each
   * status's range of feedback_ns_status_created_idx in order and merges them: one index range cannot
   * give several statuses newest first, and without this every matching row would be read and sorted.
   */
  statuses?: readonly string[];
};

/** How many of the newest rows a search page looks through before it asks the search indexes. */
const SEARCH_WINDOW = 2_000;

const newestFirst = [sql`${feedback.createdAt} desc nulls last`, sql`${feedback.id} desc nulls last`];

/**
 * The SQL of one page, limit + 1 rows (unexecuted: `npm run bench` EXPLAINs exactly this). Newest
 * first is a keyset page: its cost depends on the limit, never on how deep the page is. By rank, the
 * order has no stable key, so the cursor counts the rows already given.
 */
export function pageSelect(db: DbOrTx, query: PageQuery) {
  const where = query.match ? [...query.where, query.match] : [...query.where];
  const columns = { ...itemColumns, ...query.extra };
  if (query.rank && query.rankWindow && query.match) {
    return rankedWithin(db, { ...query, rank: query.rank, rankWindow: query.rankWindow }, where);
  }
  if (query.rank) {
    const offset = query.cursor ? decodeOffsetCursor(query.cursor, query.scope) : 0;
    return (
      db
        .select(columns)
        .from(feedback)
        .where(and(...where))
        // NULLS LAST as the indexes are built, so votes read feedback_ns_heads_votes_idx in order.
        .orderBy(sql`${query.rank} desc nulls last`, ...newestFirst)
        .limit(query.limit + 1)
        .offset(offset)
    );
  }
  if (query.cursor) {
    const at = decodeCursor(query.cursor, query.scope);
    where.push(
      sql`(${feedback.createdAt}, ${feedback.id}) < (${at.createdAt.toISOString()}::timestamptz, ${at.id})`,
    );
  }
  const [first, second, ...rest] = [...new Set(query.statuses)].map((status) =>
    db
      .select(columns)
      .from(feedback)
      .where(and(...where, eq(feedback.status, status as ItemRow["status"])))
      .orderBy(...newestFirst)
      .limit(query.limit + 1),
  );
  if (first && second) {
    // Built here, not shared: drizzle rewrites a union's ORDER BY columns in place to their bare names.
    return unionAll(first, second, ...rest)
      .orderBy(sql`${feedback.createdAt} desc nulls last`, sql`${feedback.id} desc nulls last`)
      .limit(query.limit + 1);
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

/**
 * A relevance page: the newest `rankWindow` matches are scored (walking the date index for a common
 * word, the search indexes for a rare one) and only the page's rows are then read in full, highlights
 * and all. Scoring every match of a word most items hold would cost a read of the whole namespace.
 */
function rankedWithin(
  db: DbOrTx,
  query: PageQuery & { rank: SQL<number>; rankWindow: number },
  where: SQL[],
) {
  const offset = query.cursor ? decodeOffsetCursor(query.cursor, query.scope) : 0;
  const hits = db
    .select({
      id: feedback.id,
      at: sql<Date>`${feedback.createdAt}`.as("at"),
      score: sql<number>`${query.rank}`.as("score"),
    })
    .from(feedback)
    .where(and(...where))
    .orderBy(...newestFirst)
    .limit(query.rankWindow)
    .as("hits");
  const byScore = [sql`${hits.score} desc`, sql`${hits.at} desc`, sql`${hits.id} desc`];
  const top = db
    .select({ id: hits.id, score: hits.score, at: hits.at })
    .from(hits)
    .orderBy(...byScore)
    .limit(query.limit + 1)
    .offset(offset)
    .as("top");
  return db
    .select({ ...itemColumns, ...query.extra })
    .from(feedback)
    .innerJoin(top, eq(top.id, feedback.id))
    .orderBy(sql`${top.score} desc`, sql`${top.at} desc`, sql`${top.id} desc`);
}

const before = (at: { createdAt: Date; id: string }) =>
  sql`(${feedback.createdAt}, ${feedback.id}) < (${at.createdAt.toISOString()}::timestamptz, ${at.id})`;

/**
 * A newest-first search page, bounded however common the search: walking the newest items finds a common word
 * fast but a rare one only by reading the whole namespace, so the newest SEARCH_WINDOW items are looked
 * through first, and only if too few match are the search indexes asked for the older matches, then sorted.
 */
async function searchRows(db: DbOrTx, query: PageQuery & { match: SQL }) {
  const where = [...query.where];
  if (query.cursor) where.push(before(decodeCursor(query.cursor, query.scope)));
  const columns = { ...itemColumns, ...query.extra };
  const want = query.limit + 1;
  const window = db
    .select({ id: feedback.id })
    .from(feedback)
    .where(and(...where))
    .orderBy(...newestFirst)
    .limit(SEARCH_WINDOW);
  const recent = await db
    .select(columns)
    .from(feedback)
    .where(and(inArray(feedback.id, window), query.match))
    .orderBy(...newestFirst)
    .limit(want);
  if (recent.length >= want) return recent;
  // The window's oldest item: matches beyond it come from the search indexes.
  const [edge] = await db
    .select({ createdAt: feedback.createdAt, id: feedback.id })
    .from(feedback)
    .where(and(...where))
    .orderBy(...newestFirst)
    .offset(SEARCH_WINDOW - 1)
    .limit(1);
  if (!edge) return recent;
  // Materialized, so the planner finds the matches through the search indexes first, instead of
  // walking the namespace in date order hoping to meet them.
  const matches = db
    .select({ id: feedback.id })
    .from(feedback)
    .where(and(...where, before(edge), query.match));
  const older = await db
    .select(columns)
    .from(feedback)
    .where(sql`${feedback.id} in (with hits as materialized (${matches}) select id from hits)`)
    .orderBy(...newestFirst)
    .limit(want - recent.length);
  return [...recent, ...older];
}

/** One page: reads limit + 1 rows to know whether more remain. */
export async function pageOf<Extra extends Record<string, unknown> = Record<string, never>>(
  db: DbOrTx,
  query: PageQuery,
): Promise<{ rows: (ItemRow & Extra)[]; nextCursor?: string }> {
  const rows = (
    query.match && !query.rank
      ? await searchRows(db, { ...query, match: query.match })
      : await pageSelect(db, query)
  ) as (ItemRow & Extra)[];
  return pageFrom(rows, query);
}

/** The page in limit + 1 rows read for it, and the cursor to the next one when more remain. */
export function pageFrom<Row extends ItemRow>(
  rows: Row[],
  query: Pick<PageQuery, "limit" | "cursor" | "scope" | "rank">,
): { rows: Row[]; nextCursor?: string } {
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
