import type { PGlite } from "@electric-sql/pglite";
import type postgres from "postgres";
import { openDb } from "../../lib/db/client";
import { compareMigrations } from "../../lib/db/inspect";
import { Refusal } from "./cli";
import { insertPage, RowDigest, readingAhead, type TableShape, tablePages, tableShapes } from "./copy-tables";
import { compareSummaries, publicTables, type Query, quoteIdent, summarize } from "./summary";

// Rows per statement: a page's text arrays stay a few MB, and the statements few.
const PAGE = 2000;

/** The comparison did not hold: thrown inside the target's transaction, so nothing is committed. */
class Mismatch extends Error {}

const pgliteQuery =
  (db: PGlite): Query =>
  async (text, params = []) =>
    (await db.query<unknown[]>(text, params, { rowMode: "array" })).rows;
const postgresQuery =
  (sql: postgres.Sql | postgres.TransactionSql): Query =>
  (text, params = []) =>
    sql.unsafe(text, params as postgres.ParameterOrJSON<never>[]).values() as Promise<unknown[][]>;

/** The source must be at this build's migrations: the target's schema is made by them. */
async function checkSourceMigrations(source: Query) {
  const [[present]] = (await source("select to_regclass('drizzle.__drizzle_migrations') is not null")) as [
    [boolean],
  ];
  const applied = present
    ? (await source("select hash, created_at from drizzle.__drizzle_migrations")).map(([hash, at]) => ({
        hash: String(hash),
        createdAt: Number(at),
      }))
    : null;
  const report = compareMigrations(applied);
  if (report.unknown > 0)
    throw new Refusal("the embedded database was migrated by a newer version than this one");
  if (report.pending.length > 0) {
    throw new Refusal(
      `the embedded database lacks ${report.pending.length} migration(s): start the service on it once, or run npm run db:migrate without DATABASE_URL, then move it`,
    );
  }
}

/** Refuses a target where any table of the public schema holds a row: a move never mixes two databases. */
async function checkTargetEmpty(target: Query) {
  const tables = await publicTables(target);
  const used: string[] = [];
  for (const table of tables) {
    const [[any]] = (await target(`select exists(select 1 from public.${quoteIdent(table)})`)) as [[boolean]];
    if (any) used.push(table);
  }
  if (used.length) throw new Refusal(`the target database already holds data (in ${used.join(", ")})`);
}

function checkSameShapes(source: TableShape[], target: TableShape[]) {
  const columns = (s?: TableShape) =>
    s
      ? s.columns
          .map((c) => `${c.name} ${c.type}`)
          .sort()
          .join(", ")
      : "(missing)";
  for (const shape of source) {
    const other = target.find((t) => t.name === shape.name);
    if (columns(shape) !== columns(other)) {
      throw new Refusal(
        `table ${shape.name} differs: source (${columns(shape)}), target (${columns(other)})`,
      );
    }
  }
}

/**
 * Copies every row of every table of an embedded database into an empty PostgreSQL database: schema by
 * the same migrations, rows in pages of one statement each, all in one transaction, sequences carried
 * over. Before it commits, both sides are compared (rows per table, the ledger per status, and a digest
 * of every row); on any difference nothing is committed. Answers whether they were equal; prints both.
 */
export async function moveToPostgres(options: {
  source: PGlite;
  target: postgres.Sql;
  targetUrl: string;
  log: (line: string) => void;
}): Promise<boolean> {
  const { log, target } = options;
  const source = pgliteQuery(options.source);
  await options.source.exec("set timezone to 'UTC'; set datestyle to 'ISO, MDY'");
  await checkSourceMigrations(source);
  await checkTargetEmpty(postgresQuery(target));
  await (await openDb({ url: options.targetUrl })).close();
  await checkTargetEmpty(postgresQuery(target));
  const shapes = await tableShapes(source);
  checkSameShapes(shapes, await tableShapes(postgresQuery(target)));
  const before = await summarize(source);
  const sequences = await source(
    "select sequencename, last_value::text from pg_sequences where schemaname = 'public' and last_value is not null",
  );

  let lines: string[] = [];
  try {
    await target.begin(async (tx) => {
      const digests = new Map<string, { source: RowDigest; target: RowDigest }>();
      for (const shape of shapes) {
        const started = performance.now();
        const digest = new RowDigest();
        // The embedded database reads the next page while PostgreSQL writes this one.
        for await (const page of readingAhead(tablePages(source, shape, PAGE))) {
          for (const row of page) digest.add(row);
          await insertPage(postgresQuery(tx), shape, page);
        }
        // Read back as the source was read: every value's text, so a value the copy changed shows.
        const back = new RowDigest();
        for await (const page of tablePages(postgresQuery(tx), shape, PAGE)) {
          for (const row of page) back.add(row);
        }
        digests.set(shape.name, { source: digest, target: back });
        log(
          `  ${shape.name}: ${digest.count} rows in ${((performance.now() - started) / 1000).toFixed(1)} s`,
        );
      }
      for (const [name, value] of sequences as [string, string][]) {
        await tx.unsafe("select setval(format('public.%I', $1::text)::regclass, $2::bigint)", [name, value]);
        log(`  sequence ${name}: ${value}`);
      }
      const compared = compareSummaries(before, await summarize(postgresQuery(tx)));
      lines = compared.lines;
      const differing = [...digests].filter(([, d]) => d.source.value !== d.target.value).map(([n]) => n);
      lines.push(
        differing.length
          ? `  rows read back from the target differ from the source in: ${differing.join(", ")}  DIFFERENT`
          : `  every row of ${digests.size} tables read back from the target as it was in the source  ok`,
      );
      if (!compared.same || differing.length) throw new Mismatch();
    });
  } catch (error) {
    if (!(error instanceof Mismatch)) throw error;
    for (const line of lines) log(line);
    log("The two sides differ: nothing was committed; the target is as empty as before.");
    return false;
  }
  for (const line of lines) log(line);
  await target.unsafe("analyze");
  return true;
}
