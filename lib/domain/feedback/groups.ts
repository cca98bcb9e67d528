import "server-only";
import { asc, eq, inArray, isNull, or, sql } from "drizzle-orm";
import { type Who, whoOf } from "@/lib/auth/identity";
import { type DbOrTx, getDb } from "@/lib/db/client";
import { retryingConflicts } from "@/lib/db/errors";
import { param, preparedSql } from "@/lib/db/prepared";
import { feedback, feedbackEvents } from "@/lib/db/schema";
import { requireAccess } from "@/lib/domain/namespace/require-access";
import type { FeedbackStatus } from "@/lib/schemas/feedback";
import type { MergeInput, UnmergeInput } from "@/lib/schemas/triage";
import {
  contrastConflict,
  DETAIL_SHARE,
  DETAIL_WORDS,
  FIRST_CUT_WORDS,
  hostsConflict,
  NEAR_COPY,
  parallelTitles,
  plainTitle,
  SAME_TITLE_WORDS,
  SYMPTOM_WORDS,
  specificsConflict,
  TITLE_SYMPTOM_WORDS,
  titleWords,
  versionsConflict,
  versionsOf,
} from "./alike";
import { objectWords, symptomsOf, symptomVocabulary } from "./alike-symptoms";
import { newEventId, recordEvents } from "./history";
import { SEEN_BY_OWNER } from "./known-listing";
import { lockItems } from "./lock-items";

/**
 * How many of a namespace's group heads a new report is compared with: the most reported, then the
 * newest. Bounds the cost of grouping at any inbox size; an old single report past the window no longer
 * gathers duplicates (the next alike report starts a group of its own).
 */
const CANDIDATE_HEADS = 500;
/**
 * How many members of each candidate group, newest first, and of all groups together, a new report is also
 * compared with: a group is whatever its reports say, not only its first one.
 */
const MEMBERS_PER_GROUP = 50;
const MEMBER_REPORTS = 500;
/**
 * How many of those, the most alike by their stored words, the rule is applied to: reading symptoms from a
 * report's text costs about 2 ms, and a namespace of many alike heads would otherwise cost a second a report.
 */
const COMPARED_REPORTS = 32;

/** A report in one of these is finished with: new reports never join its group. */
const CLOSED: FeedbackStatus[] = ["resolved", "wont_fix", "spam", "duplicate"];

/** A constant written into the statement, so the planner sees its type (a bound 0.6 would be read as bigint). */
const literal = (value: number) => sql.raw(String(value));

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
          alike_words as words, alike_specifics as specifics, ${plainTitle(sql`title`)} as plain,
          ${titleWords(sql`title`)} as title_words, ${versionsOf(sql`title || ' ' || description`)} as versions,
          ${symptomsOf(sql`title || ' ' || description`)} as symptoms,
          ${objectWords(sql`title`, symptomVocabulary())} as objects, ${symptomVocabulary()} as vocabulary
        from ${feedback} where id = ${param("id")} and grouped_at is null
        for update
      ), heads as materialized (
        -- The candidate groups are a bounded window of the namespace's heads, most reported first, then newest
        -- (feedback_ns_heads_votes_idx): a title index over every namespace would hand back every alike
        -- title in the table, and a flood of alike reports would make each new one cost more than the last.
        select h.id, h.created_at, h.grouped_at is null as pending, h.report_count, h.title, h.alike_words,
          h.alike_specifics
        from item i cross join lateral (
          select id, created_at, type, status, grouped_at, report_count, title, alike_words, alike_specifics
          from ${feedback}
          where namespace = i.namespace and group_id is null
          order by report_count desc nulls last, created_at desc nulls last, id desc nulls last
          limit ${CANDIDATE_HEADS}
        ) h
        -- A report already in a group, or a head with votes of its own, is only marked looked at.
        where i.group_id is null and i.report_count <= 1
          and h.type = i.type and h.status not in (${closedStatuses}) and h.id <> i.id
          -- Older heads only (ties by id), so the head of a group always came first.
          and (h.created_at, h.id) < (i.created_at, i.id)
      ), reports as (
        -- Compared: each candidate group's head, and its members (spam aside), newest first (feedback_group_idx).
        select id as head, id, title, alike_words, alike_specifics from heads
        union all
        select * from (
          select h.id as head, m.id, m.title, m.alike_words, m.alike_specifics from heads h cross join lateral (
            select id, title, alike_words, alike_specifics from ${feedback}
            where group_id = h.id and status <> 'spam'
            order by created_at desc, id desc limit ${MEMBERS_PER_GROUP}
          ) m
          where h.report_count > 1
          limit ${MEMBER_REPORTS}
        ) as members
      ), scored as materialized (
        -- The first cut, from the stored columns: a few words in common (counted by deleting the new report's
        -- words from the other's, in one call) and titles naming nothing the other does not; or the same
        -- title (punctuation aside), which only a report holding every stem of the new title can have.
        select k.head, k.id, k.title, k.shared, k.same_title, k.size + cardinality(i.words) - k.shared as together,
          least(k.size, cardinality(i.words)) as shorter
        from (
          select r.head, r.id, r.title, r.alike_specifics, cardinality(r.alike_words) as size,
            cardinality(r.alike_words) - length(ts_delete(array_to_tsvector(r.alike_words), i.words)) as shared,
            r.alike_words @> i.title_words and ${plainTitle(sql`r.title`)} = i.plain as same_title
          from reports r cross join item i
        ) k cross join item i
        where k.same_title
          or not ${specificsConflict(sql`k.alike_specifics`, sql`i.specifics`)} and k.shared >= ${literal(FIRST_CUT_WORDS)}
      ), measured as materialized (
        -- The rest is computed for these few only: the words both titles use, and what tells them apart.
        select s.head, s.id, s.shared, s.same_title, s.together, s.shorter,
          length(t.words) - length(ts_delete(t.words, i.title_words)) as in_titles
        from scored s cross join item i
        cross join lateral (select array_to_tsvector(${titleWords(sql`s.title`)}) as words) t
      ), alike as materialized (
        -- The rule (alike.ts): told apart by nothing, and the same title, a near copy, the same details, or the
        -- same symptom of the same thing said in other words.
        select m.head, m.id, h.created_at, h.pending, m.score
        from (
          -- The best first cut's reports alone: what tells reports apart is read from their text here.
          select *, case when same_title then 1 else shared::float8 / greatest(1, together) end as score
          from measured order by score desc, id limit ${COMPARED_REPORTS}
        ) m join heads h on h.id = m.head join ${feedback} f on f.id = m.id cross join item i
        -- Read once a report (offset 0 keeps the planner from copying it into each use below)...
        cross join lateral (select ${symptomsOf(sql`f.title || ' ' || f.description`)} as symptoms offset 0) x
        -- ...and, where a path gets that far, the thing its title names.
        cross join lateral (select ${objectWords(sql`f.title`, sql`i.vocabulary`)} as objects) o
        where (m.same_title and cardinality(i.title_words) >= ${literal(SAME_TITLE_WORDS)}
            or m.in_titles > 0 and (m.shared >= ${literal(NEAR_COPY)} * m.together
              or m.shared - m.in_titles >= ${literal(DETAIL_WORDS)}
                and m.shared - m.in_titles >= ${literal(DETAIL_SHARE)} * (m.shorter - m.in_titles)
              or x.symptoms && i.symptoms and m.shared >= ${literal(SYMPTOM_WORDS)}
                and o.objects <@ i.words and i.objects <@ f.alike_words
                and ${plainTitle(sql`f.title`)} <> i.plain
              or x.symptoms && i.symptoms and m.in_titles >= ${literal(TITLE_SYMPTOM_WORDS)} and o.objects && i.objects
                and ${plainTitle(sql`f.title`)} <> i.plain and not ${parallelTitles(plainTitle(sql`f.title`), sql`i.plain`)}))
          -- Each names a symptom, and none the same: two issues of one thing.
          and (cardinality(x.symptoms) = 0 or cardinality(i.symptoms) = 0 or x.symptoms && i.symptoms)
          and not ${hostsConflict(sql`f.targets`, sql`i.targets`)}
          and not ${versionsConflict(versionsOf(sql`f.title || ' ' || f.description`), sql`i.versions`)}
          and (m.same_title or not ${contrastConflict(sql`f.title`, sql`i.title`)})
      ), best as (
        -- The best group whose head was looked at already. One not looked at yet (its report arrived a moment
        -- before this one, and is being grouped now or soon) may itself belong under an older head, so it
        -- counts only on the last try.
        select head as id, id as report, score from alike
        where not pending or ${param("last")}
        order by score desc, created_at asc, id asc
        limit 1
      ), waiting as (
        -- With no such group: the oldest alike head not looked at yet, which the caller settles first.
        select head as id from alike where pending
        order by created_at, head
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
          'Suggested as alike to ' || best.report || '.',
          jsonb_build_object('into', head.id, 'alike', best.report, 'sharedWords', round(best.score::numeric, 2)),
          now()
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
 * Files a new report, as a suggestion, under the open group of its namespace it is most alike (same type; its
 * head or any of its members alike by the rule of alike.ts); the head's report count is its votes. Heads are
 * older than their members and a report is looked at once (grouped_at), so no loop forms; alike reports
 * arriving together are settled oldest first, within `statements`, into one group.
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
  await requireAccess(who, input.namespace, "triage", db);
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
    // Every report whose group changes, and the head it was under (null: it headed its own), so the owner's
    // client can put them back as they were.
    const followers =
      heads.length > 0
        ? await tx
            .select({ id: feedback.id, from: sql<string>`${feedback.groupId}` })
            .from(feedback)
            .where(inArray(feedback.groupId, heads))
            .for("update")
        : [];
    if (followers.length > 0) {
      await tx
        .update(feedback)
        .set({ groupId: head })
        .where(
          inArray(
            feedback.id,
            followers.map((f) => f.id),
          ),
        );
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
    // The owner chose the group's head: it may be listed as a known issue now.
    await tx.update(feedback).set(SEEN_BY_OWNER).where(eq(feedback.id, head));
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
      moved: [
        ...moving.map((id) => ({ id, from: found.get(id)!.groupId })).filter((m) => m.from !== head),
        ...followers.filter((f) => !moving.includes(f.id)),
      ],
    };
  });
}

/** The owner takes reports out of their groups; each heads a group of its own again. */
export async function unmergeReports(who: Who, input: UnmergeInput, db?: DbOrTx) {
  const wallet = whoOf(who).address;
  db ??= await getDb();
  await requireAccess(who, input.namespace, "triage", db);
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
