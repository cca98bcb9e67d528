import "server-only";
import { and, arrayContains, eq, ilike, inArray, isNull, or, type SQL, sql } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import { type DbOrTx, getDb } from "@/lib/db/client";
import { feedback } from "@/lib/db/schema";
import { requireOwner } from "@/lib/domain/namespace/require-owner";
import type { ListQuery } from "@/lib/schemas/list";
import { groupsOf } from "./groups";
import { highlight, START, STOP } from "./highlight";
import { type ItemRow, pageOf } from "./page";
import { plainPage } from "./plain-page";
import { presentListItem } from "./present";

/** A LIKE pattern that matches `text` literally anywhere (backslash is Postgres's default escape). */
function containing(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * `column` holds `q` literally, in any case, found through the column's trigram index. A trigram scan
 * reads the index entries of every trigram in its pattern and keeps the rows holding them all, so a
 * common word in a phrase ("item" of "item 77777", in every row) makes it read most of the index. Only
 * the phrase's longest word (the most trigrams, so the fewest rows) goes to the index, and the rows it
 * finds are checked for the whole phrase by `strpos` of the lowercased texts: exactly what ILIKE
 * compares, with nothing the planner could push into the index scan.
 */
function holding(column: AnyPgColumn, q: string): SQL {
  const words = q.split(/\s+/).filter(Boolean);
  if (words.length < 2) return ilike(column, containing(q));
  const longest = words.reduce((a, b) => (b.length >= a.length ? b : a));
  return and(ilike(column, containing(longest)), sql`strpos(lower(${column}), lower(${q})) > 0`)!;
}

const MARKS = `StartSel=${START}, StopSel=${STOP}`;

/** Search by relevance ranks this many of the newest matches (bounded cost at any inbox size). */
export const RANK_WINDOW = 5_000;

/** A search: its full-text query, the match condition, its rank and the highlights of a page's rows. */
function searchOf(q: string) {
  const words = sql`websearch_to_tsquery('english', ${q})`;
  return {
    // Full text over every field the search document holds (GIN index), or a literal part of the title
    // or description (trigram indexes): "crash" finds "crashes", and "E_42" finds "E_42x".
    match: or(
      sql`${feedback.search} @@ ${words}`,
      holding(feedback.title, q),
      holding(feedback.description, q),
    )!,
    rank: sql<number>`ts_rank_cd(${feedback.search}, ${words})`,
    extra: {
      titleMarked: sql<string>`ts_headline('english', ${feedback.title}, ${words}, ${`HighlightAll=true, ${MARKS}`})`,
      descriptionMarked: sql<string>`ts_headline('english', ${feedback.description}, ${words}, ${`MaxFragments=2, MaxWords=24, MinWords=10, FragmentDelimiter=" … ", ${MARKS}`})`,
    },
  };
}

/** The filters and cursor scope of an inbox query (exported for the benchmark's query plans). */
export function inboxFilter(query: ListQuery): {
  where: SQL[];
  scope: string;
  rank?: SQL<number>;
  rankWindow?: number;
  extra?: Record<string, SQL<string>>;
  match?: SQL;
  statuses?: readonly string[];
} {
  const where: SQL[] = [eq(feedback.namespace, query.namespace)];
  if (query.type) where.push(eq(feedback.type, query.type));
  if (query.severity) where.push(eq(feedback.severity, query.severity));
  if (query.resolved !== undefined) where.push(eq(feedback.resolved, query.resolved));
  if (query.status) where.push(inArray(feedback.status, query.status));
  if (query.grouped) where.push(isNull(feedback.groupId));
  // Containment reads the GIN index of labels.
  if (query.label) where.push(arrayContains(feedback.labels, [query.label]));
  const search = query.q ? searchOf(query.q) : undefined;

  // Every filter is part of the scope, so a cursor from one query is refused by any other. The free
  // text comes last, after a fixed number of fields, so no two queries share a scope string.
  const resolved = query.resolved === undefined ? "" : String(query.resolved);
  const status = query.status?.join(",") ?? "";
  const scope = `list\n${query.namespace}\n${query.type ?? ""}\n${query.severity ?? ""}\n${resolved}\n${status}\n${query.label ?? ""}\n${query.grouped}\n${query.sort}\n${query.q ?? ""}`;
  return {
    where,
    scope,
    ...(query.status && query.status.length > 1 ? { statuses: query.status } : {}),
    ...(search ? { extra: search.extra, match: search.match } : {}),
    ...(search && query.sort === "relevance" ? { rank: search.rank, rankWindow: RANK_WINDOW } : {}),
    // Votes: the heads with the most reports first (feedback_ns_heads_votes_idx).
    ...(query.sort === "reports" ? { rank: sql<number>`${feedback.reportCount}` } : {}),
  };
}

/** A search page's highlights, per row. */
type Marked = { titleMarked?: string; descriptionMarked?: string };

/** Whether a list query is the inbox's usual view, which a prepared statement reads (`plainPage`). */
function isPlain(query: ListQuery): boolean {
  const { type, severity, resolved, status, label, q, sort } = query;
  return (
    !type && !severity && resolved === undefined && !status && !label && q === undefined && sort === "newest"
  );
}

/** The owner's inbox: a namespace's feedback, newest first or by relevance, filtered and searched. */
export async function listFeedback(wallet: string, query: ListQuery, db?: DbOrTx) {
  db ??= await getDb();
  const filter = inboxFilter(query);
  const { limit, cursor } = query;
  const owner = requireOwner(wallet, query.namespace, db);
  let page: { rows: (ItemRow & Marked)[]; nextCursor?: string };
  if (isPlain(query)) {
    // The usual view is one cheap indexed read: it runs beside the owner check (one round trip, not two),
    // and what it found is dropped when the check refuses.
    const reading = plainPage(db, {
      namespace: query.namespace,
      grouped: query.grouped,
      limit,
      cursor,
      scope: filter.scope,
    });
    reading.catch(() => undefined);
    await owner;
    page = await reading;
  } else {
    // A search may cost far more: only the owner's is run.
    await owner;
    page = await pageOf<Marked>(db, { ...filter, limit, cursor });
  }
  const q = query.q;
  const reporters = query.grouped
    ? await groupsOf(
        db,
        page.rows.map((r) => r.id),
      )
    : undefined;
  return {
    namespace: query.namespace,
    count: page.rows.length,
    feedback: page.rows.map((row) => {
      const listed = presentListItem(row);
      const item = reporters ? { ...listed, reporters: reporters.get(row.id) ?? [] } : listed;
      if (q === undefined) return item;
      const { titleMarked = row.title, descriptionMarked = row.description } = row;
      return {
        ...item,
        highlights: { title: highlight(titleMarked, q), description: highlight(descriptionMarked, q) },
      };
    }),
    ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}),
  };
}
