import "server-only";
import { Column, is, type SQL, sql } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import type { DbOrTx } from "./client";

/**
 * A statement built once per database handle (or open transaction) and then only executed with
 * placeholder values. Building a drizzle query walks its whole SQL tree; on the paid hot path that
 * was about a millisecond of CPU per statement, which a prepared statement pays once per process.
 *
 * Its values are bound with `param`, which skips drizzle's column mapping, so callers give driver
 * values: JSON text for jsonb (`jsonb`), ISO strings for timestamps, and null (never undefined) for an
 * absent value.
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
 * A prepared select of plain columns whose rows are mapped by a loop built once. drizzle maps each value
 * by testing its field's class chain, which for a page of items (50 rows of 30 columns) costs more CPU
 * than the page's own index read; the values are the same, each through its column's own decoder
 * (`flat-rows.db.test.ts` holds both mappings to equal answers). Anything else keeps drizzle's mapping.
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
 * A statement written in SQL (one the query builder cannot say), prepared like the builder's: its
 * text is rendered once, and postgres.js parses it once per connection, where `db.execute` sends it
 * unnamed, to be parsed and planned again on every call. Its values are `param`s, given by name to
 * the function it returns, which answers the rows from postgres.js (an array) and PGlite (`{ rows }`)
 * alike.
 */
export function preparedSql<Row>(name: string, statement: SQL) {
  const query = dialect.sqlToQuery(statement);
  const build = prepared((db) => db._.session.prepareQuery(query, undefined, name, false));
  return async (db: DbOrTx, values: Record<string, unknown>): Promise<Row[]> => {
    const result: unknown = await build(db).execute(values);
    return (Array.isArray(result) ? result : (result as { rows: Row[] }).rows) as Row[];
  };
}
