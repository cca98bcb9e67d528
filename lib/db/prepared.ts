import "server-only";
import { type SQL, sql } from "drizzle-orm";
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
