import { type SQL, sql } from "drizzle-orm";

/**
 * When two reports are suggested as the same issue, as SQL over an older head `h` and a new report `i`. On
 * 267 labelled pairs (testing/alike-pairs.ts) title similarity alone joined near misses ("…PNG" / "…PDF"), so
 * the whole text must agree, on the same hosts, with no telling specifics. Tuned for precision.
 */

/** Cheap first cut over the candidate window: title trigram similarity (pg_trgm). */
export const TITLE_PREFILTER = 0.3;

/** How many of the two reports' distinct words (stemmed, stop words out) they must share (Jaccard). */
export const SHARED_WORDS = 0.45;

/** Jaccard similarity of two word arrays. */
export const sharedWords = (a: SQL, b: SQL) =>
  sql`(select count(*) from (select unnest(${a}) intersect select unnest(${b})) as x)::float8
    / greatest(1, (select count(*) from (select unnest(${a}) union select unnest(${b})) as y))`;

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
