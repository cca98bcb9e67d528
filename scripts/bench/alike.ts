/**
 * The "alike" section of `npm run bench`: the duplicate suggestion measured on testing/alike-pairs.ts through
 * the real grouping statement, beside the rule it replaced (title trigram similarity of at least 0.5, same
 * type). Writes its figures as JSON to the file its argument names.
 */
import { writeFileSync } from "node:fs";
import { sql } from "drizzle-orm";
import { openDb } from "@/lib/db/client";
import { ALIKE_PAIRS, type LabelledPair } from "@/testing/alike-pairs";
import { measureAlike } from "@/testing/measure-alike";

const out = process.argv[2];
if (!out) throw new Error("usage: alike.ts <out.json>");

const { db, close } = await openDb({ url: process.env.DATABASE_URL });
const rounded = (x: number) => Math.round(x * 1000) / 1000;

/** Measures inside a transaction that is rolled back: the bench's database keeps nothing of it. */
async function measured(pairs: readonly LabelledPair[]) {
  let result: Awaited<ReturnType<typeof measureAlike>> | undefined;
  await db
    .transaction(async (tx) => {
      result = await measureAlike(tx, pairs);
      tx.rollback();
    })
    .catch(() => undefined);
  if (!result) throw new Error("the measurement did not finish");
  const { wrong: _, ...figures } = result;
  return { ...figures, precision: rounded(figures.precision), recall: rounded(figures.recall) };
}

const started = performance.now();
const all = await measured(ALIKE_PAIRS);
const ms = Math.round(performance.now() - started);
const [even, odd] = [0, 1].map((r) => ALIKE_PAIRS.filter((_, i) => i % 2 === r));
const halves = { even: await measured(even!), odd: await measured(odd!) };

// The rule before: a new report joined an open group when its title was alike (trigram >= 0.5).
let tp = 0;
let fp = 0;
for (const p of ALIKE_PAIRS) {
  const rows = (await db.execute(sql`select similarity(${p.a.title}, ${p.b.title}) as s`)) as unknown as
    | { rows: { s: number }[] }
    | { s: number }[];
  const s = Number((Array.isArray(rows) ? rows : rows.rows)[0]?.s ?? 0);
  if (s >= 0.5 && p.a.type === p.b.type) p.same ? tp++ : fp++;
}
const positives = ALIKE_PAIRS.filter((p) => p.same).length;
const before = {
  suggested: tp + fp,
  truePositives: tp,
  falsePositives: fp,
  precision: rounded(tp / Math.max(1, tp + fp)),
  recall: rounded(tp / positives),
};

writeFileSync(out, JSON.stringify({ ...all, msForAllPairs: ms, halves, titleSimilarityRule: before }));
console.log(
  `  alike: ${all.pairs} pairs (${positives} duplicates): precision ${all.precision}, recall ${all.recall}; the title rule before: precision ${before.precision}, recall ${before.recall}`,
);
await close();
