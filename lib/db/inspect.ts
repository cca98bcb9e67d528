import "server-only";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { readMigrationFiles } from "drizzle-orm/migrator";
import { MIGRATIONS_FOLDER } from "./client";

/** One row of drizzle's `drizzle.__drizzle_migrations`: the file's hash and its journal timestamp. */
type AppliedMigration = { hash: string; createdAt: number };

/** The database as found, read without creating, migrating or changing anything. */
export type DatabaseFound =
  | {
      state: "found";
      driver: "postgres" | "pglite";
      version: string;
      /** null when drizzle's table does not exist: no migration was ever applied. */
      applied: AppliedMigration[] | null;
      trgm: "installed" | "available" | "missing";
      /** The instances seen in the last `liveSeconds` (lib/ops/instances.ts); empty before that migration. */
      instances: { role: string; host: string; pid: number; secrets: Record<string, string> }[];
    }
  /** `memory://`: each process creates and migrates its own at start; there is nothing to read. */
  | { state: "in-memory" }
  /** No database in PGLITE_DIR yet: the app creates and migrates it at first start. */
  | { state: "absent" }
  /** Another process has the embedded database open: opening it too could corrupt it. */
  | { state: "busy" };

type Query = (text: string) => Promise<Record<string, unknown>[]>;

async function read(
  query: Query,
  driver: "postgres" | "pglite",
  liveSeconds: number,
): Promise<DatabaseFound> {
  const [{ version }] = (await query("select current_setting('server_version') as version")) as [
    { version: string },
  ];
  const [{ present }] = (await query(
    "select to_regclass('drizzle.__drizzle_migrations') is not null as present",
  )) as [{ present: boolean }];
  const applied = present
    ? (await query("select hash, created_at from drizzle.__drizzle_migrations order by created_at")).map(
        (row) => ({ hash: String(row.hash), createdAt: Number(row.created_at) }),
      )
    : null;
  const [trgm] = (await query(
    `select exists(select 1 from pg_extension where extname = 'pg_trgm') as installed,
            exists(select 1 from pg_available_extensions where name = 'pg_trgm') as available`,
  )) as [{ installed: boolean; available: boolean }];
  const state = trgm.installed ? "installed" : trgm.available ? "available" : "missing";
  const [{ listed }] = (await query("select to_regclass('public.instances') is not null as listed")) as [
    { listed: boolean },
  ];
  const live = listed
    ? await query(
        `select role, host, pid, secrets from instances where seen_at > now() - interval '${Math.floor(liveSeconds)} seconds'`,
      )
    : [];
  const instances = live.map((row) => ({
    role: String(row.role),
    host: String(row.host),
    pid: Number(row.pid),
    secrets: (typeof row.secrets === "string" ? JSON.parse(row.secrets) : row.secrets) as Record<
      string,
      string
    >,
  }));
  return { state: "found", driver, version, applied, trgm: state, instances };
}

/**
 * The database the app would open (DATABASE_URL, or the embedded one in `dataDir`), read with plain
 * queries: unlike getDb(), nothing is created or migrated, so what is missing shows as missing.
 */
export async function inspectDatabase(options: {
  url?: string;
  dataDir: string;
  timeoutMs: number;
  /** How recently an instance must have been seen to count as running. */
  liveSeconds?: number;
}): Promise<DatabaseFound> {
  const { url, dataDir, timeoutMs } = options;
  const liveSeconds = options.liveSeconds ?? 180;
  if (url) {
    const { default: postgres } = await import("postgres");
    const sql = postgres(url, {
      max: 1,
      onnotice: () => {},
      connect_timeout: Math.ceil(timeoutMs / 1000),
      connection: { statement_timeout: timeoutMs },
    });
    try {
      return await read((text) => sql.unsafe(text), "postgres", liveSeconds);
    } finally {
      await sql.end({ timeout: 1 });
    }
  }
  if (dataDir.startsWith("memory://")) return { state: "in-memory" };
  if (!existsSync(path.join(dataDir, "PG_VERSION"))) return { state: "absent" };
  // PGlite has no lock of its own; its postmaster.pid exists while a process has the directory open.
  if (existsSync(path.join(dataDir, "postmaster.pid"))) return { state: "busy" };
  const [{ PGlite }, { pg_trgm }] = await Promise.all([
    import("@electric-sql/pglite"),
    import("@electric-sql/pglite/contrib/pg_trgm"),
  ]);
  const client = await PGlite.create(dataDir, { extensions: { pg_trgm } });
  try {
    const query: Query = async (text) => (await client.query<Record<string, unknown>>(text)).rows;
    return await read(query, "pglite", liveSeconds);
  } finally {
    await client.close();
  }
}

/** How the applied migrations compare with the ones this build ships. */
export type MigrationReport = {
  total: number;
  /** Tags a migration run would apply now (drizzle applies every file newer than the last applied). */
  pending: string[];
  /** Applied migrations this build does not ship: a newer version migrated this database. */
  unknown: number;
  /** Tags applied from a file that has changed since. */
  edited: string[];
};

/** Compares drizzle's table with the journal in `folder`, by drizzle's own rule. */
export function compareMigrations(
  applied: AppliedMigration[] | null,
  folder: string = MIGRATIONS_FOLDER,
): MigrationReport {
  const journal = JSON.parse(readFileSync(path.join(folder, "meta", "_journal.json"), "utf8")) as {
    entries: { tag: string; when: number }[];
  };
  const files = readMigrationFiles({ migrationsFolder: folder });
  const shipped = journal.entries.map((entry, i) => ({ ...entry, hash: files[i]?.hash }));
  const rows = applied ?? [];
  const last = rows.reduce((max, row) => Math.max(max, row.createdAt), Number.NEGATIVE_INFINITY);
  const byTime = new Map(rows.map((row) => [row.createdAt, row.hash]));
  const known = new Set(shipped.map((entry) => entry.when));
  return {
    total: shipped.length,
    pending: shipped.filter((entry) => entry.when > last).map((entry) => entry.tag),
    unknown: rows.filter((row) => !known.has(row.createdAt)).length,
    edited: shipped
      .filter((entry) => byTime.has(entry.when) && byTime.get(entry.when) !== entry.hash)
      .map((entry) => entry.tag),
  };
}
