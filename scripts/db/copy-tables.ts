import { createHash } from "node:crypto";
import { type Query, quoteIdent } from "./summary";

type Column = { name: string; type: string };
/** A table as a move copies it: the columns it stores (generated ones are the target's to compute), its key. */
export type TableShape = { name: string; columns: Column[]; key: Column[] };

/** Every table of the public schema with the columns a copy writes, and its primary key. */
export async function tableShapes(query: Query): Promise<TableShape[]> {
  const rows = await query(
    `select c.relname, a.attname, format_type(a.atttypid, a.atttypmod),
            array_position(i.indkey::int2[], a.attnum)
     from pg_class c
     join pg_namespace n on n.oid = c.relnamespace and n.nspname = 'public'
     join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped and a.attgenerated = ''
     left join pg_index i on i.indrelid = c.oid and i.indisprimary
     where c.relkind in ('r', 'p')
     order by c.relname, a.attnum`,
  );
  type Reading = TableShape & { keyAt: Map<number, Column> };
  const shapes = new Map<string, Reading>();
  for (const [table, column, type, keyPosition] of rows as [string, string, string, number | null][]) {
    const shape: Reading = shapes.get(table) ?? { name: table, columns: [], key: [], keyAt: new Map() };
    shapes.set(table, shape);
    shape.columns.push({ name: column, type });
    if (keyPosition !== null) shape.keyAt.set(Number(keyPosition), { name: column, type });
  }
  return [...shapes.values()].map(({ keyAt, ...shape }) => ({
    ...shape,
    key: [...keyAt].sort(([a], [b]) => a - b).map(([, k]) => k),
  }));
}

/**
 * A table's content, independent of row order (collations may sort keys differently on each side): the
 * count, and the sum (mod 2^128) of a hash of each row's text. Rows are distinct (a primary key), so
 * equal digests mean equal rows.
 */
export class RowDigest {
  count = 0n;
  private sum = 0n;
  add(row: (string | null)[]) {
    this.count++;
    const hash = createHash("sha256").update(JSON.stringify(row)).digest();
    this.sum = (this.sum + hash.readBigUInt64BE(0) * 2n ** 64n + hash.readBigUInt64BE(8)) % 2n ** 128n;
  }
  get value() {
    return `${this.count}:${this.sum.toString(16)}`;
  }
}

/**
 * A table's rows in pages by its primary key (memory stays flat however large it is), each value as its
 * text form (null for SQL null): what PostgreSQL's input functions read back as the same value.
 */
export async function* tablePages(source: Query, shape: TableShape, pageSize: number) {
  if (shape.key.length === 0)
    throw new Error(`table ${shape.name} has no primary key: cannot page through it`);
  const key = shape.key.map((k) => quoteIdent(k.name)).join(", ");
  const names = shape.columns.map((c) => c.name);
  const keyIndex = shape.key.map((k) => names.indexOf(k.name));
  const select = `select ${names.map((c) => `${quoteIdent(c)}::text`).join(", ")} from public.${quoteIdent(shape.name)}`;
  const after = `where (${key}) > (${shape.key.map((k, i) => `$${i + 1}::${k.type}`).join(", ")})`;
  let last: unknown[] | null = null;
  for (;;) {
    const rows = await source(`${select} ${last ? after : ""} order by ${key} limit ${pageSize}`, last ?? []);
    if (rows.length) yield rows as (string | null)[][];
    if (rows.length < pageSize) return;
    const end = rows.at(-1)!;
    last = keyIndex.map((i) => end[i]);
  }
}

/** Yields what `pages` yields, asking for the next page while the caller works on this one. */
export async function* readingAhead<T>(pages: AsyncIterable<T>): AsyncGenerator<T> {
  const iterator = pages[Symbol.asyncIterator]();
  let next = iterator.next();
  for (;;) {
    const { value, done } = await next;
    if (done) return;
    next = iterator.next();
    // A failed read-ahead is thrown when awaited; until then it must not count as unhandled.
    next.catch(() => {});
    yield value;
  }
}

/**
 * Writes a page of rows in one statement: each column sent as one text array and cast by the column's own
 * type, as COPY would read it. (postgres.js loses a COPY's error once its input has ended, and waits.)
 */
export function insertPage(target: Query, shape: TableShape, rows: (string | null)[][]) {
  const names = shape.columns.map((c) => quoteIdent(c.name));
  const casts = shape.columns.map((c, i) => `u.c${i}::${c.type}`).join(", ");
  const arrays = shape.columns.map((_, i) => `$${i + 1}::text[]`).join(", ");
  const aliases = shape.columns.map((_, i) => `c${i}`).join(", ");
  return target(
    `insert into public.${quoteIdent(shape.name)} (${names.join(", ")})
     select ${casts} from unnest(${arrays}) as u(${aliases})`,
    shape.columns.map((_, i) => rows.map((row) => row[i])),
  );
}
