import "server-only";
import { Column, is, type SQL, sql } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import type { DbOrTx } from "./client";

/**
 * A statement built once per database handle (or open transaction): building a drizzle query walks its SQL
 * tree, about 1 ms of CPU a statement on the paid hot path. Values bound with `param` skip drizzle's column
 * mapping, so give driver values: JSON text for jsonb, ISO strings for timestamps, null (never undefined).
 */
export function prepared<T>(build: (db: DbOrTx) => T): (db: DbOrTx) => T {
  const built = new WeakMap<DbOrTx, T>();
  return (db) => {
    let statement = built.get(db);
    if (statement === undefined) {
      statement = build(db);
      built.set(db, statement);
    }
    return statement;
  };
}

/** A jsonb placeholder's value: the JSON text, or SQL null. */
export const jsonb = (value: unknown): string | null =>
  value === undefined || value === null ? null : JSON.stringify(value);

/**
 * A prepared statement's value, sent to the driver as given. (A bare placeholder in `values()` goes
 * through the column's mapping, which turns a null jsonb into JSON `null` and throws on a null date.)
 */
export const param = (name: string): SQL => sql`${sql.placeholder(name)}`;

/** A value, or a prepared statement's `param` for it. */
export type Bound<T> = T | SQL;

type Mapped = { path: string[]; field: unknown };
type PreparedInternals = {
  fields?: Mapped[];
  customResultMapper?: (rows: unknown[][]) => unknown;
};

/**
 * A prepared select of plain columns, its rows mapped by a loop built once: drizzle's per-value class-chain
 * test cost more CPU than a page's own index read. Same values, each through its column's decoder
 * (`flat-rows.db.test.ts` holds both mappings equal); anything else keeps drizzle's mapping.
 */
export function withFlatRows<T>(statement: T): T {
  const internals = statement as unknown as PreparedInternals;
  const fields = internals.fields;
  if (
    !fields ||
    internals.customResultMapper ||
    fields.some(({ path, field }) => path.length !== 1 || !is(field, Column))
  ) {
    return statement;
  }
  const keys = fields.map(({ path }) => path[0]!);
  const columns = fields.map(({ field }) => field as Column);
  internals.customResultMapper = (rows) =>
    rows.map((row) => {
      const out: Record<string, unknown> = {};
      for (let i = 0; i < keys.length; i++) {
        const value = row[i];
        out[keys[i]!] = value === null ? null : columns[i]!.mapFromDriverValue(value);
      }
      return out;
    });
  return statement;
}

const dialect = new PgDialect();

/**
 * A statement in SQL (one the builder cannot say), prepared like the builder's: rendered once and parsed once
 * a connection by postgres.js, where `db.execute` has it parsed and planned on every call. Its `param` values
 * are given by name; rows come back alike from postgres.js and PGlite.
 */
export function preparedSql<Row>(name: string, statement: SQL) {
  const query = dialect.sqlToQuery(statement);
  const build = prepared((db) => db._.session.prepareQuery(query, undefined, name, false));
  return async (db: DbOrTx, values: Record<string, unknown>): Promise<Row[]> => {
    const result: unknown = await build(db).execute(values);
    return (Array.isArray(result) ? result : (result as { rows: Row[] }).rows) as Row[];
  };
}
