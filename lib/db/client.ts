import "server-only";
import { mkdirSync, readFileSync } from "node:fs";
import { cp } from "node:fs/promises";
import path from "node:path";
import type { ExtractTablesWithRelations } from "drizzle-orm";
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from "drizzle-orm/pg-core";
import { env } from "@/lib/env";
import { retryingConflicts } from "./errors";
import { type LockSession, pgliteLockSession, postgresLockSession } from "./lock-session";
import { countingPool } from "./pool-stats";
import * as schema from "./schema";

type Schema = typeof schema;
/** The one database type the domain sees, whichever driver is underneath. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
type Tx = PgTransaction<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;
/** Either the database or an open transaction: verbs accept both so they compose. */
export type DbOrTx = Db | Tx;

/** What copyEmbeddedDb did: copied, or nothing, since the data is in PostgreSQL or in memory. */
export type DataDirCopy = "copied" | "postgres" | "in-memory";

/**
 * `asyncCommit` is the same database for short-lived bookkeeping whose loss in a database crash is
 * harmless (see getAsyncCommitDb); on PGlite it is `db` itself.
 */
type Handle = {
  db: Db;
  asyncCommit: Db;
  /** Opens a session of its own for advisory locks that must end with the process (see LockSession). */
  lockSession: () => Promise<LockSession>;
  close: () => Promise<void>;
  driver: "pglite" | "postgres";
  /** Copies the embedded database's data directory to `to` (see copyEmbeddedDb). */
  copyDataDir: (to: string) => Promise<DataDirCopy>;
};

// A host that drops packets answers nothing: a request gives up on it in seconds (a 503 to send again),
// not after postgres.js's default 30 s.
const CONNECT_TIMEOUT_S = 5;
// How long closing the handle waits for running statements before it ends their connections.
const CLOSE_TIMEOUT_S = 5;
// The statements' pool, each instance's (lib/db/pool-stats.ts counts its waits).
const POOL_CONNECTIONS = 10;
// A few connections for the bookkeeping statements (one each per signed request or paid call).
const ASYNC_COMMIT_CONNECTIONS = 3;

/** The migrations this build ships (drizzle-kit's output). */
export const MIGRATIONS_FOLDER = path.join(process.cwd(), "drizzle");
// One key for every instance: migrations run once even when several app processes start together.
const MIGRATION_LOCK = 7_210_441_907;

/**
 * The migrated, empty embedded database (a `dumpDataDir` tarball) named by FEEDBACK_MEMORY_TEMPLATE, which
 * each new in-memory database starts from instead of running initdb and every migration again. Test
 * setups set it (testing/memory-template.ts): they open dozens of databases.
 */
let memoryTemplate: { file: string; dump: Blob } | undefined;
function memoryTemplateDump(): Blob | undefined {
  const file = process.env.FEEDBACK_MEMORY_TEMPLATE;
  if (!file) return undefined;
  if (memoryTemplate?.file !== file) memoryTemplate = { file, dump: new Blob([readFileSync(file)]) };
  return memoryTemplate.dump;
}

async function open(url: string | undefined, dataDir: string): Promise<Handle> {
  if (url) {
    const [{ default: postgres }, { drizzle }, { migrate }] = await Promise.all([
      import("postgres"),
      import("drizzle-orm/postgres-js"),
      import("drizzle-orm/postgres-js/migrator"),
    ]);
    const lockClient = postgres(url, { max: 1, connect_timeout: CONNECT_TIMEOUT_S, onnotice: () => {} });
    try {
      await lockClient`select pg_advisory_lock(${MIGRATION_LOCK})`;
      await migrate(drizzle({ client: lockClient }), { migrationsFolder: MIGRATIONS_FOLDER });
      await lockClient`select pg_advisory_unlock(${MIGRATION_LOCK})`;
    } finally {
      await lockClient.end();
    }
    const client = countingPool(
      postgres(url, { max: POOL_CONNECTIONS, connect_timeout: CONNECT_TIMEOUT_S, onnotice: () => {} }),
      POOL_CONNECTIONS,
    );
    const sessions = new Set<LockSession>();
    const asyncClient = postgres(url, {
      max: ASYNC_COMMIT_CONNECTIONS,
      connect_timeout: CONNECT_TIMEOUT_S,
      onnotice: () => {},
      connection: { synchronous_commit: "off" },
    });
    return {
      db: retryingTransactions(drizzle({ client, schema }) as unknown as Db),
      asyncCommit: drizzle({ client: asyncClient, schema }) as unknown as Db,
      lockSession: async () => {
        const session = await postgresLockSession(url);
        sessions.add(session);
        return session;
      },
      // Lock sessions end with the handle too: a script that closes it must not be kept alive by one.
      // Statements still running get CLOSE_TIMEOUT_S to finish, then their connections are ended: a
      // statement whose server went away unseen (no RST) must not hold a shutdown for good.
      close: async () => {
        const timeout = CLOSE_TIMEOUT_S;
        await Promise.all([
          client.end({ timeout }),
          asyncClient.end({ timeout }),
          ...[...sessions].map((s) => s.close()),
        ]);
      },
      driver: "postgres",
      copyDataDir: async () => "postgres",
    };
  }
  const [{ PGlite }, { pg_trgm }, { drizzle }, { migrate }] = await Promise.all([
    import("@electric-sql/pglite"),
    import("@electric-sql/pglite/contrib/pg_trgm"),
    import("drizzle-orm/pglite"),
    import("drizzle-orm/pglite/migrator"),
  ]);
  if (!dataDir.startsWith("memory://")) mkdirSync(dataDir, { recursive: true });
  // pg_trgm (literal substring search) ships with PGlite and must be loaded when the database opens.
  const template = dataDir.startsWith("memory://") ? memoryTemplateDump() : undefined;
  const client = await PGlite.create(dataDir, {
    extensions: { pg_trgm },
    ...(template ? { loadDataDir: template } : {}),
  });
  // From a template, every migration it holds is already applied: only newer ones run.
  const db = drizzle({ client, schema });
  await migrate(db, { migrationsFolder: MIGRATIONS_FOLDER });
  return {
    db: db as unknown as Db,
    asyncCommit: db as unknown as Db,
    lockSession: async () => pgliteLockSession(client),
    close: () => client.close(),
    driver: "pglite",
    copyDataDir: async (to) => {
      if (dataDir.startsWith("memory://")) return "in-memory";
      await client._runExclusiveQuery(() => cp(dataDir, to, { recursive: true }));
      return "copied";
    },
  };
}

/**
 * Every top-level transaction of `db` runs again when the database rolls it back for a race it lost
 * (retryingConflicts). A transaction nested in another is a savepoint and is never retried alone: the
 * whole outer transaction is. PGlite has one connection and never races, so only postgres.js gets it.
 */
function retryingTransactions(db: Db): Db {
  const transaction = db.transaction.bind(db);
  db.transaction = ((...args: Parameters<Db["transaction"]>) =>
    retryingConflicts(() => transaction(...args), {
      onRetry: (code) => console.warn(`[db] a transaction lost a race (SQLSTATE ${code}); running it again`),
    })) as Db["transaction"];
  return db;
}

// Survives Next's module reloads in dev: one database handle per process.
const store = globalThis as unknown as { __feedbackDb?: Promise<Handle>; __feedbackDbWaiting?: boolean };

/**
 * Thrown while a server that started with its database away waits for it (see waitInBackground): a request
 * meanwhile is answered at once, as a database that cannot be reached (503 with Retry-After), instead of
 * waiting on a connection of its own. Its `code` is one isDatabaseUnreachable knows.
 */
class DatabaseStillStarting extends Error {
  readonly code = "DATABASE_STARTING";
  constructor() {
    super("the database is not open yet: the server is still waiting for it");
  }
}

/** While true, getDb() answers DatabaseStillStarting at once; the start-up's own attempts go on (openProcessDb). */
export function setDatabaseWaiting(waiting: boolean): void {
  store.__feedbackDbWaiting = waiting;
}

/** The start-up's own attempt at the process-wide handle, whatever setDatabaseWaiting says. */
export function openProcessDb(): Promise<Db> {
  return processHandle().then((h) => h.db);
}

/** The process-wide handle, opened and migrated on first use. */
function processHandle(): Promise<Handle> {
  store.__feedbackDb ??= open(env().DATABASE_URL, env().PGLITE_DIR).catch((error) => {
    store.__feedbackDb = undefined;
    throw error;
  });
  return store.__feedbackDb;
}

/** The process-wide database, migrated on first use. */
export function getDb(): Promise<Db> {
  if (store.__feedbackDbWaiting) return Promise.reject(new DatabaseStillStarting());
  return processHandle().then((h) => h.db);
}

/**
 * The process-wide database for bookkeeping that only guards against abuse and may be lost in a crash
 * of the database server: sign-in nonces (issued and spent) and rate-limit counters. Its commits do not
 * wait for the write-ahead log to reach the disk (`synchronous_commit = off`), which on every signed
 * request and paid call saves the flush of the statement it waits for. What it writes is visible to
 * every other connection as soon as it returns, and its statements are as atomic as any other, so a
 * nonce is still spent once however many race; only a crash of the database server within a fraction
 * of a second of a commit can undo it (a nonce spent again within its short life, a count restarted).
 * Money never goes through it: payments, items and rewards are written through `getDb()`, whose
 * commits are durable, and each such commit also makes every earlier one durable.
 */
export function getAsyncCommitDb(): Promise<Db> {
  if (store.__feedbackDbWaiting) return Promise.reject(new DatabaseStillStarting());
  return processHandle().then((h) => h.asyncCommit);
}

/** A new session of this process's own for session-level advisory locks (see LockSession). */
export function openLockSession(): Promise<LockSession> {
  return processHandle().then((h) => h.lockSession());
}

/**
 * Copies the embedded database's data directory to `to`, consistently: under PGlite's query lock (the
 * one its own dumpDataDir takes), so no statement runs meanwhile, and the copy is what a crash at that
 * instant would leave, which PostgreSQL's recovery opens at the last commit.
 */
export function copyEmbeddedDb(to: string): Promise<DataDirCopy> {
  return processHandle().then((h) => h.copyDataDir(to));
}

/** Opens a separate, migrated database handle (tests, scripts). */
export function openDb(options: { url?: string; dataDir?: string }): Promise<Handle> {
  return open(options.url, options.dataDir ?? "memory://");
}

/** Closes the process-wide handle (scripts and tests that exit cleanly). */
export async function closeDb(): Promise<void> {
  const handle = await store.__feedbackDb;
  store.__feedbackDb = undefined;
  await handle?.close();
}
