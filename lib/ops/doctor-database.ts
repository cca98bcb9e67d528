import "server-only";
import {
  compareMigrations,
  type DatabaseFound,
  inspectDatabase,
  type MigrationReport,
} from "@/lib/db/inspect";
import type { ServerEnv } from "@/lib/env";
import { withTimeout } from "@/lib/payment/timeout";
import { type DoctorItem, fail, hostOf, ok, skip, warn } from "./doctor-item";
import { describeInstances, LIVE_MS, SHARED_SECRETS, secretMismatches } from "./instances";

const DATABASE_ITEM = "database";
const MIGRATIONS_ITEM = "database migrations";
const TRGM_ITEM = "pg_trgm";
const SECRETS_ITEM = "shared secrets";
const MIGRATE = "npm run db:migrate (with the same DATABASE_URL or PGLITE_DIR)";

/** A database error in words: PostgreSQL's own message names no password; a socket error names host:port. */
function databaseWords(error: unknown, timeoutMs: number): string {
  const { code, message } = error as { code?: unknown; message?: unknown };
  if ((error as Error)?.name === "TimeoutError") return `no answer within ${timeoutMs} ms`;
  const first = typeof message === "string" ? message.split("\n")[0]!.slice(0, 200) : "failed";
  return typeof code === "string" && !first.includes(code) ? `${first} (${code})` : first;
}

function migrationsItem(report: MigrationReport): DoctorItem {
  if (report.unknown > 0) {
    return fail(
      MIGRATIONS_ITEM,
      `the database has ${report.unknown} migration(s) this build does not ship: a newer version migrated it`,
      "deploy that version or a newer one, or point DATABASE_URL at this version's database",
    );
  }
  if (report.pending.length > 0) {
    // getDb() migrates on first use, so the app catches up at start; a role without DDL rights cannot.
    return warn(
      MIGRATIONS_ITEM,
      `${report.pending.length} of ${report.total} not applied yet (${report.pending.join(", ")}); the app applies them when it starts, if its database role may`,
      `apply them now: ${MIGRATE}`,
    );
  }
  if (report.edited.length > 0) {
    return warn(
      MIGRATIONS_ITEM,
      `applied from files changed since (${report.edited.join(", ")}): the schema may differ from drizzle/`,
      "restore those files from git: a migration is never edited once applied",
    );
  }
  return ok(MIGRATIONS_ITEM, `all ${report.total} in drizzle/ applied`);
}

function trgmItem(found: Extract<DatabaseFound, { state: "found" }>, pending: boolean): DoctorItem {
  if (found.trgm === "installed") return ok(TRGM_ITEM, "installed (search)");
  if (found.trgm === "available" && pending) {
    return warn(
      TRGM_ITEM,
      "available, not created yet: a pending migration creates it",
      `apply the migrations: ${MIGRATE}`,
    );
  }
  if (found.trgm === "available") {
    return fail(
      TRGM_ITEM,
      "available but not created in this database: search fails",
      "run create extension pg_trgm as a role allowed to",
    );
  }
  return fail(
    TRGM_ITEM,
    "this PostgreSQL server has no pg_trgm extension: search fails",
    "install the server's contrib package (postgresql-contrib), then apply the migrations",
  );
}

/** This configuration's MPP_SECRET_KEY and APP_SECRET are the ones every running instance on the database uses. */
async function secretsItem(
  e: ServerEnv,
  found: Extract<DatabaseFound, { state: "found" }>,
): Promise<DoctorItem> {
  const live = found.instances;
  if (!live.length) return ok(SECRETS_ITEM, "no instance is running on this database to compare with");
  const mismatches = await secretMismatches(e, live);
  if (!mismatches.length) {
    return ok(SECRETS_ITEM, `MPP_SECRET_KEY and APP_SECRET match the ${live.length} running instance(s)`);
  }
  const [first] = mismatches;
  const detail = mismatches
    .map(
      ({ variable, others }) =>
        `${variable} differs from ${describeInstances(others)}: ${SHARED_SECRETS[variable]}`,
    )
    .join("; ");
  return fail(
    SECRETS_ITEM,
    detail,
    `give every instance the same ${mismatches.map((m) => m.variable).join(" and ")} (${first!.variable} first)`,
  );
}

/**
 * The database answers, every migration in `migrationsFolder` (default drizzle/) is applied, and
 * pg_trgm is there; read without migrating, so the doctor reports what the app would find.
 */
export async function databaseItems(
  e: ServerEnv,
  timeoutMs: number,
  migrationsFolder?: string,
): Promise<DoctorItem[]> {
  const where = e.DATABASE_URL
    ? `PostgreSQL at ${hostOf(e.DATABASE_URL)}`
    : `the embedded database in ${e.PGLITE_DIR}`;
  const notRead = (because: string) => [skip(MIGRATIONS_ITEM, because), skip(TRGM_ITEM, because)];
  let found: DatabaseFound;
  try {
    const inspection = inspectDatabase({
      url: e.DATABASE_URL,
      dataDir: e.PGLITE_DIR,
      timeoutMs,
      liveSeconds: LIVE_MS / 1000,
    });
    // PGlite is local and must close the directory it opened: only a server's answer is raced.
    found = e.DATABASE_URL ? await withTimeout(inspection, timeoutMs * 2, DATABASE_ITEM) : await inspection;
  } catch (error) {
    const fix = e.DATABASE_URL ? "check DATABASE_URL, and that the server is up" : "check PGLITE_DIR";
    return [
      fail(DATABASE_ITEM, `${where}: ${databaseWords(error, timeoutMs * 2)}`, fix),
      ...notRead("the database did not answer"),
    ];
  }
  if (found.state === "in-memory") {
    return [
      warn(
        DATABASE_ITEM,
        "PGLITE_DIR is memory://: each process starts with an empty database, lost when it stops",
        "set DATABASE_URL, or PGLITE_DIR to a directory",
      ),
      ...notRead("an in-memory database is created when the app starts"),
    ];
  }
  if (found.state === "absent") {
    return [
      warn(
        DATABASE_ITEM,
        `no database in ${e.PGLITE_DIR} yet: the app creates and migrates it when it starts`,
        `create it now: ${MIGRATE}`,
      ),
      ...notRead("there is no database yet"),
    ];
  }
  if (found.state === "busy") {
    return [
      warn(
        DATABASE_ITEM,
        `${where} is open in another process (its postmaster.pid exists), and reading it too could corrupt it`,
        "stop the app, then run npm run doctor again (a killed app leaves the file: start and stop it once)",
      ),
      ...notRead("the embedded database is in use"),
    ];
  }
  const report = compareMigrations(found.applied, migrationsFolder);
  return [
    ok(DATABASE_ITEM, `${where} answers (server version ${found.version})`),
    migrationsItem(report),
    trgmItem(found, report.pending.length > 0),
    // One process holds an embedded database: only PostgreSQL has other instances to agree with.
    ...(e.DATABASE_URL ? [await secretsItem(e, found)] : []),
  ];
}
