/**
 * `npm run db:migrate [-- --not-in-use]`: applies the migrations in drizzle/ to the database the service
 * uses (DATABASE_URL, else the embedded one in PGLITE_DIR), read from the same environment and .env files
 * as `next start`. An embedded database another process may hold is refused: two opens corrupt it.
 */
import { openDb } from "../lib/db/client";
import { loadServiceEnv, parseArgs, Refusal, runCommand } from "./db/cli";
import { NOT_IN_USE_FLAG, refuseIfHeld } from "./db/embedded";

await runCommand(async () => {
  const { flags } = parseArgs(process.argv.slice(2), [], [NOT_IN_USE_FLAG]);
  const { databaseUrl, pgliteDir } = loadServiceEnv();
  if (!databaseUrl) {
    if (pgliteDir.startsWith("memory://"))
      throw new Refusal("PGLITE_DIR is memory://: nothing on disk to migrate");
    // The running service migrates its own database when it starts: only a stopped one is migrated here.
    // Looked at whether or not it holds a database yet: a service starting into it now has written its
    // postmaster.pid before its PG_VERSION, and a second initdb beside it would corrupt both.
    refuseIfHeld(
      pgliteDir,
      "migrate it (the service applies migrations when it starts)",
      flags.has(NOT_IN_USE_FLAG),
    );
  }
  const handle = await openDb({ url: databaseUrl, dataDir: pgliteDir });
  await handle.close();
  console.log(
    `Migrations applied to ${databaseUrl ? `PostgreSQL at ${new URL(databaseUrl).host} (DATABASE_URL)` : `the embedded database in ${pgliteDir}`}.`,
  );
  return 0;
});
