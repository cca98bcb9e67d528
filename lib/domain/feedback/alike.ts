import { type SQL, sql } from "drizzle-orm";
import { contrastWords } from "./contrasts";

/**
 * When a new report is suggested as the same issue as an older one, as SQL pieces for the grouping statement
 * (groups.ts). Measured on the labelled pairs of testing/alike-pairs.json (`npm run bench`, section alike),
 * tuned for precision: a wrong suggestion puts a distinct bug into a group and raises it in "Most reports".
 *
 * A and B are the stemmed words of each report's title and description (stop words out, common synonyms made one
 * word: feedback_alike_words, migration 0028), T the stems both titles use. Alike when nothing below tells them
 * apart and one of these holds:
 * - the same title (case, spacing and punctuation aside) that says enough: at least SAME_TITLE_WORDS stems.
 *   A shorter one ("Login problem", "App crashes") says too little: the descriptions decide, as for any pair;
 * - a near copy: |A ∩ B| / |A ∪ B| ≥ NEAR_COPY;
 * - the same details: with T set aside (the thing both titles name, which near misses share too), they still
 *   share DETAIL_WORDS words and DETAIL_SHARE of the shorter report's rest: a terse report whose few words a
 *   long one all repeats is as alike as two of one length.
 * - the same symptom of the same thing in other words: the reports name a symptom class in common
 *   (alike-symptoms.ts: "closes unexpectedly" / "crashes", "nothing happens" / "doesn't respond"), share
 *   SYMPTOM_WORDS words, their titles differ, and every word of each title but the symptom's is in the other
 *   report: near misses that swap one thing ("tax total" / "due date", "Jira" / "Linear") name a word the other
 *   report never uses;
 * - one symptom of one thing, named in both titles: a symptom class in common, TITLE_SYMPTOM_WORDS stems in both
 *   titles, one of them a word no symptom uses (the thing: "Refund button does nothing" / "Clicking Refund in the
 *   dashboard has no effect"), unless the titles are written from one template (parallelTitles: "Cart empties
 *   after login" / "Cart empties after 30 minutes").
 * The last four need titles with a stem in common (T not empty): two reports titled apart that share a body are
 * two issues sent with one template ("Environment: … Steps: …"), not one issue.
 * Told apart, whatever else they share: another type, different hosts, different versions named, symptoms named
 * by both and none in common ("crashes" / "freezes", "never arrives" / "shows the wrong total"), and, unless
 * the titles are the same, titles naming different specifics (a number, path, code or name) or different
 * alternatives of a contrast ("first" / "last", "missing" / "wrong": contrasts.ts).
 *
 * Measured 2026-12-07 on PostgreSQL, 463 pairs: all P 0.986 R 0.358 (73 of 204, 1 wrong); even P 0.973 R 0.36;
 * odd P 1 R 0.356; in two people's own words P 1 R 0.208 (16 of 77); 30 pairs written after the rule's first
 * version was fixed (alike-pairs-held-out.json) P 1 R 0.733 (11 of 15). Before the last path: all 0.982 / 0.265,
 * own words 1 / 0.104, held out 1 / 0.467.
 */

/** A title of this many stems or more, repeated, is the same report. */
export const SAME_TITLE_WORDS = 4;
/** Share of all their words two near copies have in common (Jaccard). */
export const NEAR_COPY = 0.6;
/** Words two reports must share beyond those both titles use... */
export const DETAIL_WORDS = 4;
/** ...and the share of the shorter report's remaining words those are (overlap, not Jaccard: length aside). */
export const DETAIL_SHARE = 0.4;
/** Words two reports naming one symptom of one thing, in other words, must share (alike-symptoms.ts). */
export const SYMPTOM_WORDS = 5;
/** Stems two titles naming one symptom in other words must share, the thing they name among them. */
export const TITLE_SYMPTOM_WORDS = 2;
/** The first cut: fewer words in common than this and only the same title can make two reports alike. */
export const FIRST_CUT_WORDS = 3;

/** A title with case, spacing and punctuation aside. */
export const plainTitle = (title: SQL) =>
  sql`trim(regexp_replace(lower(${title}), '[^[:alnum:]]+', ' ', 'g'))`;

/** A title's words, made as the stored words are (alike_words): stems, synonyms made one. */
export const titleWords = (title: SQL) => sql`feedback_alike_words(${title})`;

/**
 * Two titles (plain, as plainTitle makes them) written from one template: the same two words at the start, at the
 * end, or one at each ("Cart empties after login" / "Cart empties after 30 minutes", "Spanish translation
 * missing" / "French translation missing"). What differs is the one thing that tells them apart; two people
 * describing one issue in their own words seldom line up so.
 */
export const parallelTitles = (a: SQL, b: SQL) =>
  sql`(select least(cardinality(x), cardinality(y)) >= 2 and (x[:2] = y[:2]
      or x[cardinality(x) - 1:] = y[cardinality(y) - 1:] or x[1] = y[1] and x[cardinality(x)] = y[cardinality(y)])
    from (select string_to_array(${a}, ' ') as x, string_to_array(${b}, ' ') as y) as t)`;

/**
 * Each title names something the other does not ("returns 500" / "returns 502", "on Safari" / "on
 * Chrome"); one that only adds a detail ("on Safari" / "on Safari 17") does not conflict.
 */
export const specificsConflict = (a: SQL, b: SQL) => sql`(not ${a} <@ ${b} and not ${b} <@ ${a})`;

/** Both name hosts (their targets) and none in common: the same symptom on different sites. */
export const hostsConflict = (a: SQL, b: SQL) =>
  sql`(jsonb_array_length(${a}) > 0 and jsonb_array_length(${b}) > 0 and not exists (
    select 1 from jsonb_array_elements(${a}) as x, jsonb_array_elements(${b}) as y
    where x->>'host' = y->>'host'))`;

/** The versions a text names ("3.1.0", "v2.9", "17.4"; not "$49.00"), trailing ".0"s aside ("3.0" is "3"). */
export const versionsOf = (text: SQL) =>
  sql`array(select distinct regexp_replace(m[1], '(\\.0)+$', '')
    from regexp_matches(${text}, '(?:^|[^0-9.$€£])v?([0-9]+(?:\\.[0-9]+)+)', 'g') as m)`;

/** Both name versions and none in common: a crash on 3.1.0 is not the one fixed in 3.0.2. */
export const versionsConflict = (a: SQL, b: SQL) =>
  sql`(cardinality(${a}) > 0 and cardinality(${b}) > 0 and not ${a} && ${b})`;

const quoted = (s: string) => `'${s.replace(/'/g, "''")}'`;
const lexicon = sql.raw(
  `(values ${contrastWords()
    .map((w) => `(${quoted(w.word)}, ${quoted(w.group)}, ${quoted(w.name)})`)
    .join(", ")}) as c(word, grp, name)`,
);
/** A title's words in order, each alone and with the next one (the lexicon has a few two-word entries). */
const named = (side: boolean, title: SQL) =>
  sql`select ${sql.raw(String(side))} as side, x.at, v.word
    from (select t.word, t.at, lead(t.word) over (order by t.at) as next
      from regexp_split_to_table(lower(${title}), '[^[:alnum:]]+') with ordinality as t(word, at)) as x
    cross join lateral (values (x.word), (x.word || ' ' || x.next)) as v(word)`;

/**
 * Both titles name alternatives of a contrast group (contrasts.ts), but not the same ones in the same order:
 * "first" / "last", or "sandbox … production" / "production … sandbox".
 */
export const contrastConflict = (a: SQL, b: SQL) =>
  sql`exists (select from (
      select c.grp, c.name, min(n.at) filter (where n.side) as in_a, min(n.at) filter (where not n.side) as in_b
      from (${named(true, a)} union all ${named(false, b)}) as n join ${lexicon} on c.word = n.word
      group by c.grp, c.name
    ) as alternatives
    group by grp
    having string_agg(name, ',' order by in_a) filter (where in_a is not null)
      <> string_agg(name, ',' order by in_b) filter (where in_b is not null))`;
