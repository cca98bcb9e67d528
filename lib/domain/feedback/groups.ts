import "server-only";
import { asc, eq, inArray, isNull, or, sql } from "drizzle-orm";
import { type Who, whoOf } from "@/lib/auth/identity";
import { type DbOrTx, getDb } from "@/lib/db/client";
import { retryingConflicts } from "@/lib/db/errors";
import { param, preparedSql } from "@/lib/db/prepared";
import { feedback, feedbackEvents } from "@/lib/db/schema";
import { requireOwner } from "@/lib/domain/namespace/require-owner";
import type { FeedbackStatus } from "@/lib/schemas/feedback";
import type { MergeInput, UnmergeInput } from "@/lib/schemas/triage";
import { hostsConflict, SHARED_WORDS, sharedWords, specificsConflict, TITLE_PREFILTER } from "./alike";
import { newEventId, recordEvents } from "./history";
import { lockItems } from "./lock-items";

/**
 * How many of a namespace's group heads a new report is compared with: the most reported, then the
 * newest. Bounds the cost of grouping at any inbox size; an old single report past the window no longer
 * gathers duplicates (the next alike report starts a group of its own).
 */
const CANDIDATE_HEADS = 500;

/** A report in one of these is finished with: new reports never join its group. */
const CLOSED: FeedbackStatus[] = ["resolved", "wont_fix", "spam", "duplicate"];

const closedStatuses = sql.join(
  CLOSED.map((status) => sql`${status}`),
  sql`, `,
);

// Prepared once per connection: it runs after every paid submission, and unprepared its parse and
// plan cost the database more than a millisecond each time.
const groupStatement = preparedSql<{
  open: boolean;
  filed: boolean;
  group_id: string | null;
  waiting: string | null;
}>(
  "group_report",
  sql`
      with item as (
        select id, namespace, type, title, created_at, group_id, report_count, targets,
          alike_words as words, alike_specifics as specifics
        from ${feedback} where id = ${param("id")} and grouped_at is null
        for update
      ), scored as materialized (
        -- The candidates are a bounded window of the namespace's heads, most reported first, then newest
        -- (feedback_ns_heads_votes_idx): a title index over every namespace would hand back every alike
        -- title in the table, and a flood of alike reports would make each new one cost more than the last.
        -- Materialized, so each candidate's similarity is computed once, not again for the filter below.
        select h.id, h.created_at, h.grouped_at is null as pending, similarity(h.title, i.title) as title_score
        from item i cross join lateral (
          select id, title, created_at, type, status, grouped_at, alike_specifics from ${feedback}
          where namespace = i.namespace and group_id is null
          order by report_count desc nulls last, created_at desc nulls last, id desc nulls last
          limit ${CANDIDATE_HEADS}
        ) h
        -- A report already in a group, or a head with votes of its own, is only marked looked at.
        where i.group_id is null and i.report_count <= 1
          and h.type = i.type and h.status not in (${closedStatuses}) and h.id <> i.id
          -- Older heads only (ties by id), so the head of a group always came first.
          and (h.created_at, h.id) < (i.created_at, i.id)
          -- Titles that name different things are apart whatever else they share: checked first, as it is
          -- cheaper than the similarity computed for the rest.
          and not ${specificsConflict(sql`h.alike_specifics`, sql`i.specifics`)}
      ), alike as materialized (
        -- The few whose titles pass the first cut are compared in full (see alike.ts), from the columns
        -- the database keeps.
        select s.id, s.created_at, s.pending, ${sharedWords(sql`h.alike_words`, sql`i.words`)} as score
        from scored s cross join item i join ${feedback} h on h.id = s.id
        where s.title_score >= ${TITLE_PREFILTER} and not ${hostsConflict(sql`h.targets`, sql`i.targets`)}
      ), best as (
        -- The best head already looked at. One not looked at yet (its report arrived a moment before this
        -- one, and is being grouped now or soon) may itself belong under an older head, so it counts only
        -- on the last try.
        select id, score from alike
        where score >= ${SHARED_WORDS} and (not pending or ${param("last")})
        order by score desc, created_at asc
        limit 1
      ), waiting as (
        -- With no such head: the oldest alike report not looked at yet, which the caller settles first.
        select id from alike where pending and score >= ${SHARED_WORDS}
        order by created_at, id
        limit 1
      ), head as (
        update ${feedback} f set report_count = f.report_count + 1
        from best where f.id = best.id and f.group_id is null
        returning f.id
      ), filed as (
        -- Filed when settled: the vote counted, nothing alike at all, or the last try. Left for the next
        -- try when the best head stopped heading after this statement's snapshot (a merge by hand moved
        -- it), or when only reports not looked at yet are alike.
        -- A report merged by hand before it was looked at keeps its group.
        update ${feedback} f set grouped_at = now(), group_id = coalesce((select id from head), f.group_id),
          group_kind = case when exists (select from head) then 'suggested' else f.group_kind end
        from item where f.id = item.id
          and (${param("last")} or exists (select from head)
            or not (exists (select from best) or exists (select from waiting)))
        returning f.id
      ), merged as (
        insert into ${feedbackEvents} (id, feedback_id, namespace, kind, actor, message, details, created_at)
        select ${param("eventId")}, item.id, item.namespace, 'suggested', 'service',
          'Suggested as alike to ' || head.id || '.',
          jsonb_build_object('into', head.id, 'sharedWords', round(best.score::numeric, 2)), now()
        from item, head, best
      )
      select exists (select from item) as open, exists (select from filed) as filed,
        (select id from head) as group_id, (select id from waiting) as waiting`,
);

/**
 * How many grouping statements one report may run, older reports it settles first included. A report
 * needs one, or three in a burst of alike reports with no group yet (settle the oldest, try again); past
 * the budget it is filed with what its last try found.
 */
const GROUPING_STATEMENTS = 16;

/**
 * Files a new report under its namespace's most alike open head (same type, similar title), whose report
 * count is its votes. Heads are older than their members and a report is looked at once (grouped_at), so no
 * loop forms; alike reports arriving together are settled oldest first, within `statements`, into one group.
 */
export async function groupReport(
  id: string,
  db?: DbOrTx,
  statements = GROUPING_STATEMENTS,
): Promise<string | null> {
  const database = db ?? (await getDb());
  return groupWithin(database, id, { left: statements });
}

async function groupWithin(db: DbOrTx, id: string, budget: { left: number }): Promise<string | null> {
  for (;;) {
    const last = --budget.left <= 0;
    const [row] = await retryingConflicts(() => groupStatement(db, { id, eventId: newEventId(), last }));
    // Filed now, or looked at before (it has no open row to lock).
    if (!row?.open || row.filed) return row?.group_id ?? null;
    // Its row lock waits for a grouping of it already running elsewhere; then it is looked at.
    if (row.waiting) await groupWithin(db, row.waiting, budget);
  }
}

/** Groups the reports a crash or a lost answer left unlooked-at, oldest first, a batch per call. */
export async function groupPending(limit = 100, db?: DbOrTx): Promise<number> {
  const database = db ?? (await getDb());
  const pending = await database
    .select({ id: feedback.id })
    .from(feedback)
    .where(isNull(feedback.groupedAt))
    .orderBy(asc(feedback.createdAt))
    .limit(limit);
  for (const { id } of pending) await groupReport(id, database);
  return pending.length;
}

/** Recounts a head's votes from its members. */
async function recount(tx: DbOrTx, headId: string) {
  await tx
    .update(feedback)
    .set({
      reportCount: sql`1 + (select count(*) from ${feedback} as m where m.group_id = ${headId})::int`,
    })
    .where(eq(feedback.id, headId));
}

/**
 * The owner files reports under one group by hand: each named report, and every report already in
 * its group, joins the group of `into` (or of the head `into` belongs to). All or none.
 */
export async function mergeReports(who: Who, input: MergeInput, db?: DbOrTx) {
  const wallet = whoOf(who).address;
  db ??= await getDb();
  await requireOwner(who, input.namespace, db);
  return db.transaction(async (tx) => {
    const named = [input.into, ...input.feedbackIds];
    const found = await lockItems(tx, input.namespace, named, (i) =>
      i === 0 ? "into" : `feedbackIds.${i - 1}`,
    );
    const head = found.get(input.into)!.groupId ?? input.into;
    const moving = input.feedbackIds.filter((id) => id !== head);
    // A named report that heads a group brings its members along; its own head-ship ends.
    const heads = moving.filter((id) => found.get(id)!.groupId === null);
    const previousHeads = [
      ...new Set(
        moving.map((id) => found.get(id)!.groupId).filter((g): g is string => g !== null && g !== head),
      ),
    ];
    if (heads.length > 0) {
      await tx.update(feedback).set({ groupId: head }).where(inArray(feedback.groupId, heads));
    }
    if (moving.length > 0) {
      await tx
        .update(feedback)
        .set({
          groupId: head,
          groupKind: "merged",
          reportCount: 1,
          groupedAt: sql`coalesce(${feedback.groupedAt}, now())`,
        })
        .where(inArray(feedback.id, moving));
    }
    for (const h of previousHeads) await recount(tx, h);
    await recount(tx, head);
    const at = new Date();
    await recordEvents(
      tx,
      moving.map((id) => ({
        feedbackId: id,
        namespace: input.namespace,
        kind: "merged" as const,
        actor: wallet,
        message: null,
        details: { into: head },
        at,
      })),
    );
    const [counted] = await tx
      .select({ reportCount: feedback.reportCount })
      .from(feedback)
      .where(eq(feedback.id, head));
    return {
      namespace: input.namespace,
      groupId: head,
      reportCount: counted?.reportCount ?? 1,
      merged: moving,
    };
  });
}

/** The owner takes reports out of their groups; each heads a group of its own again. */
export async function unmergeReports(who: Who, input: UnmergeInput, db?: DbOrTx) {
  const wallet = whoOf(who).address;
  db ??= await getDb();
  await requireOwner(who, input.namespace, db);
  return db.transaction(async (tx) => {
    const found = await lockItems(tx, input.namespace, input.feedbackIds, (i) => `feedbackIds.${i}`);
    const rows = [...found.values()];
    const leaving = rows.filter((r) => r.groupId !== null);
    if (leaving.length > 0) {
      await tx
        .update(feedback)
        .set({ groupId: null, groupKind: null, reportCount: 1 })
        .where(
          inArray(
            feedback.id,
            leaving.map((r) => r.id),
          ),
        );
      for (const h of new Set(leaving.map((r) => r.groupId!))) await recount(tx, h);
      const at = new Date();
      await recordEvents(
        tx,
        leaving.map((r) => ({
          feedbackId: r.id,
          namespace: input.namespace,
          kind: "unmerged" as const,
          actor: wallet,
          message: null,
          details: { from: r.groupId },
          at,
        })),
      );
    }
    return { namespace: input.namespace, unmerged: leaving.map((r) => r.id) };
  });
}

/** The reports of a page's groups: how many and who filed them, by head id (one query per page). */
export async function groupsOf(db: DbOrTx, heads: string[]) {
  const byHead = new Map<string, { reports: number; reporters: string[] }>();
  if (heads.length === 0) return byHead;
  const rows = await db
    .select({
      head: sql<string>`coalesce(${feedback.groupId}, ${feedback.id})`,
      reports: sql<number>`count(*)::int`,
      reporters: sql<
        string[]
      >`array_agg(distinct ${feedback.submitterWallet}) filter (where ${feedback.submitterWallet} is not null)`,
    })
    .from(feedback)
    .where(or(inArray(feedback.id, heads), inArray(feedback.groupId, heads)))
    .groupBy(sql`coalesce(${feedback.groupId}, ${feedback.id})`);
  for (const r of rows)
    byHead.set(r.head, { reports: r.reports, reporters: (r.reporters ?? []).slice(0, 50) });
  return byHead;
}
