import "server-only";
import { and, arrayContains, eq, ilike, inArray, isNull, or, type SQL, sql } from "drizzle-orm";
import { type AnyPgColumn, alias } from "drizzle-orm/pg-core";
import type { Who } from "@/lib/auth/identity";
import { type DbOrTx, getDb } from "@/lib/db/client";
import { feedback } from "@/lib/db/schema";
import { requireAccess } from "@/lib/domain/namespace/require-access";
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
 * `column` holds `q` literally, in any case. A trigram scan reads every trigram of its pattern, so a common
 * word ("item" of "item 77777") would read most of the index: only the longest word goes to the index, and
 * its rows are checked for the whole phrase by `strpos` (as ILIKE compares, never pushed into the scan).
 */
export function holding(column: AnyPgColumn, q: string): SQL {
  const words = q.split(/\s+/).filter(Boolean);
  if (words.length < 2) return ilike(column, containing(q));
  const longest = words.reduce((a, b) => (b.length >= a.length ? b : a));
  return and(ilike(column, containing(longest)), sql`strpos(lower(${column}), lower(${q})) > 0`)!;
}

const MARKS = `StartSel=${START}, StopSel=${STOP}`;

/** Search by relevance ranks this many of the newest matches (bounded cost at any inbox size). */
export const RANK_WINDOW = 5_000;

/** The items table, or an alias of it (a subquery over other items). */
type Items = typeof feedback | ReturnType<typeof alias<typeof feedback, string>>;

/**
 * Full text over every field the search document holds (GIN index), or a literal part of the title or
 * description (trigram indexes): "crash" finds "crashes", and "E_42" finds "E_42x".
 */
function matching(t: Items, q: string): SQL {
  const words = sql`websearch_to_tsquery('english', ${q})`;
  return or(sql`${t.search} @@ ${words}`, holding(t.title, q), holding(t.description, q))!;
}

/** A search: its full-text query, the match condition, its rank and the highlights of a page's rows. */
function searchOf(q: string) {
  const words = sql`websearch_to_tsquery('english', ${q})`;
  return {
    match: matching(feedback, q),
    rank: sql<number>`ts_rank_cd(${feedback.search}, ${words})`,
    extra: {
      titleMarked: sql<string>`ts_headline('english', ${feedback.title}, ${words}, ${`HighlightAll=true, ${MARKS}`})`,
      descriptionMarked: sql<string>`ts_headline('english', ${feedback.description}, ${words}, ${`MaxFragments=2, MaxWords=24, MinWords=10, FragmentDelimiter=" … ", ${MARKS}`})`,
    },
  };
}

/** The conditions of a view's filters on the items of `t` (the namespace, then each filter set). */
function conditionsOn(t: Items, query: ListQuery): SQL[] {
  const where: SQL[] = [eq(t.namespace, query.namespace)];
  if (query.type) where.push(eq(t.type, query.type));
  if (query.severity) where.push(eq(t.severity, query.severity));
  if (query.resolved !== undefined) where.push(eq(t.resolved, query.resolved));
  if (query.status) where.push(inArray(t.status, query.status));
  // Containment reads the GIN index of labels.
  if (query.label) where.push(arrayContains(t.labels, [query.label]));
  // The answer that still stands, as presentConfirmation calls it current.
  if (query.confirmation === "confirmed") {
    where.push(eq(t.confirmation, "fixed"), sql`${t.resolvedAt} = ${t.confirmedResolutionAt}`);
  }
  if (query.confirmation === "disputed") where.push(eq(t.confirmation, "not_fixed"), isNull(t.resolvedAt));
  if (query.q) where.push(matching(t, query.q));
  return where;
}

const filtered = (query: ListQuery) =>
  Boolean(
    query.type ||
      query.severity ||
      query.resolved !== undefined ||
      query.status ||
      query.label ||
      query.confirmation ||
      query.q,
  );

const groupHead = alias(feedback, "group_head");
const groupMate = alias(feedback, "group_mate");

/**
 * The grouped view folds the matching reports by group: a group shows once, as its head when the head
 * matches, otherwise as its newest matching report; so a report inside a group is found by any filter
 * or search that finds it. Without filters every head matches, and only heads are read.
 */
function foldedByGroup(query: ListQuery): SQL {
  if (!filtered(query)) return isNull(feedback.groupId);
  return sql`(${feedback.groupId} is null or (
    not exists (select 1 from ${feedback} ${groupHead} where ${groupHead.id} = ${feedback.groupId} and ${and(...conditionsOn(groupHead, query))})
    and not exists (select 1 from ${feedback} ${groupMate} where ${groupMate.groupId} = ${feedback.groupId}
      and (${groupMate.createdAt}, ${groupMate.id}) > (${feedback.createdAt}, ${feedback.id})
      and ${and(...conditionsOn(groupMate, query))})))`;
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
  const where = conditionsOn(feedback, { ...query, q: undefined });
  const search = query.q ? searchOf(query.q) : undefined;
  // A search's fold goes with its match, so the newest-first window is not slowed by it.
  const fold = query.grouped ? foldedByGroup(query) : undefined;
  if (fold && !search) where.push(fold);

  // Every filter is part of the scope, so a cursor from one query is refused by any other. The free
  // text comes last, after a fixed number of fields, so no two queries share a scope string.
  const resolved = query.resolved === undefined ? "" : String(query.resolved);
  const status = query.status?.join(",") ?? "";
  const scope = `list\n${query.namespace}\n${query.type ?? ""}\n${query.severity ?? ""}\n${resolved}\n${status}\n${query.label ?? ""}\n${query.confirmation ?? ""}\n${query.grouped}\n${query.sort}\n${query.q ?? ""}`;
  return {
    where,
    scope,
    ...(query.status && query.status.length > 1 ? { statuses: query.status } : {}),
    ...(search ? { extra: search.extra, match: fold ? and(search.match, fold)! : search.match } : {}),
    ...(search && query.sort === "relevance" ? { rank: search.rank, rankWindow: RANK_WINDOW } : {}),
    // Votes: the heads with the most reports first (feedback_ns_heads_votes_idx).
    ...(query.sort === "reports" ? { rank: sql<number>`${feedback.reportCount}` } : {}),
  };
}

/** A search page's highlights, per row. */
type Marked = { titleMarked?: string; descriptionMarked?: string };

/** Whether a list query is the inbox's usual view, which a prepared statement reads (`plainPage`). */
function isPlain(query: ListQuery): boolean {
  const { type, severity, resolved, status, label, confirmation, q, sort } = query;
  return (
    !type &&
    !severity &&
    resolved === undefined &&
    !status &&
    !label &&
    !confirmation &&
    q === undefined &&
    sort === "newest"
  );
}

/** The owner's inbox: a namespace's feedback, newest first or by relevance, filtered and searched. */
export async function listFeedback(who: Who, query: ListQuery, db?: DbOrTx) {
  db ??= await getDb();
  const filter = inboxFilter(query);
  const { limit, cursor } = query;
  const owner = requireAccess(who, query.namespace, "read", db);
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
  const groups = query.grouped
    ? await groupsOf(db, [...new Set(page.rows.map((r) => r.groupId ?? r.id))])
    : undefined;
  return {
    namespace: query.namespace,
    count: page.rows.length,
    feedback: page.rows.map((row) => {
      const listed = presentListItem(row);
      const group = groups?.get(row.groupId ?? row.id);
      const item = groups
        ? { ...listed, groupReports: group?.reports ?? 1, reporters: group?.reporters ?? [] }
        : listed;
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
