import { createHash } from "node:crypto";
import { Readable, type Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { type Query, quoteIdent } from "./summary";

/** A table as a move copies it: the columns it stores (generated ones are the target's to compute), its key. */
export type TableShape = { name: string; columns: string[]; key: { name: string; type: string }[] };

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
  type Reading = TableShape & { keyAt: Map<number, { name: string; type: string }> };
  const shapes = new Map<string, Reading>();
  for (const [table, column, type, keyPosition] of rows as [string, string, string, number | null][]) {
    const shape: Reading = shapes.get(table) ?? { name: table, columns: [], key: [], keyAt: new Map() };
    shapes.set(table, shape);
    shape.columns.push(column);
    if (keyPosition !== null) shape.keyAt.set(Number(keyPosition), { name: column, type });
  }
  return [...shapes.values()].map(({ keyAt, ...shape }) => ({
    ...shape,
    key: [...keyAt].sort(([a], [b]) => a - b).map(([, k]) => k),
  }));
}

/** COPY's text format escapes, as PostgreSQL writes them. */
const ESCAPES: Record<string, string> = {
  "\\": "\\\\",
  "\b": "\\b",
  "\f": "\\f",
  "\n": "\\n",
  "\r": "\\r",
  "\t": "\\t",
  "\v": "\\v",
};
const copyText = (value: unknown) =>
  value === null ? "\\N" : String(value).replace(/[\\\b\f\n\r\t\v]/g, (c) => ESCAPES[c]!);

/**
 * A table's content, independent of row order (collations may sort keys differently on each side): the
 * count, and the sum (mod 2^128) of a hash of each row's text. Rows are distinct (a primary key), so
 * equal digests mean equal rows.
 */
export class RowDigest {
  count = 0n;
  private sum = 0n;
  add(line: string) {
    this.count++;
    const hash = createHash("sha256").update(line).digest();
    this.sum = (this.sum + hash.readBigUInt64BE(0) * 2n ** 64n + hash.readBigUInt64BE(8)) % 2n ** 128n;
  }
  get value() {
    return `${this.count}:${this.sum.toString(16)}`;
  }
}

/**
 * Reads a table in pages by its primary key (memory stays flat however large it is), each value as its
 * text form, and yields COPY text lines, one page at a time, adding every line to `digest`.
 */
export async function* tableLines(source: Query, shape: TableShape, digest: RowDigest, pageSize: number) {
  if (shape.key.length === 0)
    throw new Error(`table ${shape.name} has no primary key: cannot page through it`);
  const key = shape.key.map((k) => quoteIdent(k.name)).join(", ");
  const keyIndex = shape.key.map((k) => shape.columns.indexOf(k.name));
  const select = `select ${shape.columns.map((c) => `${quoteIdent(c)}::text`).join(", ")} from public.${quoteIdent(shape.name)}`;
  const after = `where (${key}) > (${shape.key.map((k, i) => `$${i + 1}::${k.type}`).join(", ")})`;
  let last: unknown[] | null = null;
  for (;;) {
    const rows: unknown[][] = await source(
      `${select} ${last ? after : ""} order by ${key} limit ${pageSize}`,
      last ?? [],
    );
    let page = "";
    for (const row of rows) {
      const line = row.map(copyText).join("\t");
      digest.add(line);
      page += `${line}\n`;
    }
    if (page) yield page;
    if (rows.length < pageSize) return;
    const end = rows.at(-1)!;
    last = keyIndex.map((i) => end[i]);
  }
}

/** Streams `lines` into a COPY ... FROM STDIN, with back-pressure. */
export async function copyInto(lines: AsyncIterable<string>, into: Writable): Promise<void> {
  await pipeline(Readable.from(lines), into);
}
