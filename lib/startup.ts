import "server-only";
import { openProcessDb, setDatabaseWaiting } from "@/lib/db/client";
import { isDatabaseUnreachable } from "@/lib/db/errors";
import { env, InvalidEnvError } from "@/lib/env";
import { describeError } from "@/lib/http/log";
import { installPeerAddressHook } from "@/lib/http/peer-address";
import { startBackgroundWork } from "@/lib/ops/background-work";
import { installGracefulStop } from "@/lib/ops/graceful-stop";
import { announceInstance } from "@/lib/ops/instances";

/** Checks the configuration, or exits naming each bad variable (the web server and the worker alike). */
export function checkConfiguration(): void {
  try {
    env();
  } catch (error) {
    if (error instanceof InvalidEnvError) {
      console.error(`${error.message}\nSee .env.example and docs/operations.md (Configuration).`);
      process.exit(1);
    }
    throw error;
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** How long a start waits on its first try at the database before it serves /healthz and waits on. */
const FIRST_ATTEMPT_MS = 3_000;

/**
 * Opens and migrates the database, waiting up to DB_START_TIMEOUT_MS while PostgreSQL cannot be reached (a
 * server started before its database, or during a restart), retrying with a growing pause. Throws at once
 * for any other failure (a migration that fails, a refused login), and when the time is up.
 */
async function waitForDatabase(
  timeoutMs = env().DB_START_TIMEOUT_MS,
  log: (line: string) => void = console.error,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (let attempt = 1, pause = 500; ; attempt++, pause = Math.min(pause * 2, 5_000)) {
    try {
      await openProcessDb();
      if (attempt > 1) log(`[startup] the database answered after ${attempt} attempts`);
      return;
    } catch (error) {
      if (!isDatabaseUnreachable(error) || Date.now() + pause > deadline) throw error;
      log(`[startup] the database cannot be reached (${describeError(error)}); trying again in ${pause} ms`);
      await sleep(pause);
    }
  }
}

/**
 * Server start: refuses to run on bad configuration (naming each bad variable) and applies migrations, or
 * exits non-zero when the database stays unreachable or cannot be migrated, so a supervisor (systemd, an
 * orchestrator) starts it again rather than a process that can only answer errors staying up. Unless
 * BACKGROUND_WORK=off, it also runs the background work: it finishes any paid write or payout a previous
 * crash left half-done, keeps reconciling, and sends webhooks from the outbox.
 */
export async function startServer(): Promise<void> {
  checkConfiguration();
  installPeerAddressHook();
  // From the start, so a stop that comes while the database is opening still closes it cleanly.
  const stop = installGracefulStop();
  // Next.js holds every request until this returns. The usual start opens the database here; one whose
  // database is away returns at once instead, so /healthz answers from the process alone and every call
  // that needs the database gets a quick 503 with Retry-After, while the wait goes on (and exits when it
  // runs out, as before).
  const first = await firstAttempt();
  if (first === "open") return afterOpen(stop);
  setDatabaseWaiting(true);
  console.error("[startup] the database cannot be reached yet: serving /healthz, refusing the rest with 503");
  void openDatabaseOrExit().then(() => {
    setDatabaseWaiting(false);
    return afterOpen(stop);
  });
}

/** What runs once the database is open: this instance's record and the background work, each let go by a stop. */
async function afterOpen(stop: ReturnType<typeof installGracefulStop>): Promise<void> {
  const leave = await announceInstance("web");
  const work = env().BACKGROUND_WORK ? startBackgroundWork({ keepAlive: false }) : undefined;
  stop.attach({ leave, ...(work ? { work } : {}) });
}

/**
 * One bounded try at PostgreSQL: "open", or "away" when it cannot be reached now (any other failure, a
 * migration that fails or a refused login, exits as before). The embedded database is this process's own and
 * is never away: its try is not bounded, however long a busy machine takes to open and migrate it.
 */
async function firstAttempt(): Promise<"open" | "away"> {
  const bound = env().DATABASE_URL
    ? new Promise<"away">((resolve) => setTimeout(() => resolve("away"), FIRST_ATTEMPT_MS).unref())
    : new Promise<never>(() => {});
  try {
    return await Promise.race([openProcessDb().then(() => "open" as const), bound]);
  } catch (error) {
    if (isDatabaseUnreachable(error)) return "away";
    await openDatabaseOrExit();
    return "open";
  }
}

/** waitForDatabase, or one line naming the variable to check and exit 1 (the web server and the worker). */
export async function openDatabaseOrExit(): Promise<void> {
  try {
    await waitForDatabase();
  } catch (error) {
    const where = env().DATABASE_URL ? "DATABASE_URL" : "PGLITE_DIR";
    const what = isDatabaseUnreachable(error)
      ? `could not be reached within DB_START_TIMEOUT_MS (${env().DB_START_TIMEOUT_MS} ms)`
      : "could not be opened or migrated";
    console.error(`[startup] the database ${what}: ${describeError(error)}. Check ${where}; exiting.`);
    process.exit(1);
  }
}
