/** A query answering rows as arrays: PGlite's and postgres.js's both fit behind it. */
export type Query = (text: string, params?: unknown[]) => Promise<unknown[][]>;

/** An identifier, quoted as PostgreSQL reads it. */
export const quoteIdent = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** What a database holds, in figures both sides of a move can be compared by. */
export type Summary = {
  /** Rows per table of the public schema, by name. */
  rows: Map<string, bigint>;
  /** The ledger: per table (payments, payouts) and status, the count and the sum of `amount` (base units). */
  ledger: Map<string, { count: bigint; amount: bigint }>;
};

const LEDGER_TABLES = ["payments", "payouts"];

/** The ordinary tables of the public schema (drizzle's own migrations table lives in its `drizzle` schema). */
export async function publicTables(query: Query): Promise<string[]> {
  const rows = await query(
    `select c.relname from pg_class c join pg_namespace n on n.oid = c.relnamespace
     where n.nspname = 'public' and c.relkind in ('r', 'p') order by c.relname`,
  );
  return rows.map(([name]) => String(name));
}

/** Counts every table's rows, and the ledger's count and amount per status. */
export async function summarize(query: Query): Promise<Summary> {
  const tables = await publicTables(query);
  const counts = tables.length
    ? await query(
        tables
          .map((t) => `select '${t.replaceAll("'", "''")}', count(*)::text from public.${quoteIdent(t)}`)
          .join(" union all "),
      )
    : [];
  const ledger = new Map<string, { count: bigint; amount: bigint }>();
  for (const table of LEDGER_TABLES.filter((t) => tables.includes(t))) {
    const rows = await query(
      `select status, count(*)::text, coalesce(sum(amount::numeric), 0)::text from ${table} group by status`,
    );
    for (const [status, count, amount] of rows) {
      ledger.set(`${table} ${status}`, { count: BigInt(String(count)), amount: BigInt(String(amount)) });
    }
  }
  return { rows: new Map(counts.map(([t, n]) => [String(t), BigInt(String(n))])), ledger };
}

/** One database's figures, one line each. */
export function formatSummary(summary: Summary): string[] {
  return [
    ...[...summary.rows].map(([table, n]) => `  ${table.padEnd(22)} ${String(n).padStart(10)} rows`),
    ...[...summary.ledger].map(
      ([key, { count, amount }]) =>
        `  ${key.padEnd(22)} ${String(count).padStart(10)} rows, amount ${amount} (base units)`,
    ),
  ];
}

/** Both sides, line by line, each line marked; `same` only when every figure is equal. */
export function compareSummaries(source: Summary, target: Summary): { lines: string[]; same: boolean } {
  const lines = [`  ${"".padEnd(22)} ${"source".padStart(26)} ${"target".padStart(26)}`];
  let same = true;
  const line = (key: string, a: string, b: string) => {
    const ok = a === b;
    same &&= ok;
    lines.push(`  ${key.padEnd(22)} ${a.padStart(26)} ${b.padStart(26)}  ${ok ? "ok" : "DIFFERENT"}`);
  };
  for (const table of new Set([...source.rows.keys(), ...target.rows.keys()])) {
    line(table, String(source.rows.get(table) ?? "-"), String(target.rows.get(table) ?? "-"));
  }
  for (const key of new Set([...source.ledger.keys(), ...target.ledger.keys()])) {
    const show = (v?: { count: bigint; amount: bigint }) => (v ? `${v.count} / ${v.amount}` : "-");
    line(`${key} (n / amount)`, show(source.ledger.get(key)), show(target.ledger.get(key)));
  }
  return { lines, same };
}
