/**
 * `npm run db:restore -- <file> [--replace] [--not-in-use]`: loads a backup (db:backup's tarball) into
 * PGLITE_DIR, with the service stopped (see restoreBackup).
 */
import { loadServiceEnv, parseArgs, Refusal, runCommand } from "./cli";
import { NOT_IN_USE_FLAG } from "./embedded";
import { restoreBackup } from "./restore-backup";

await runCommand(async () => {
  const { flags, positional } = parseArgs(process.argv.slice(2), [], ["replace", NOT_IN_USE_FLAG]);
  const file = positional[0];
  if (!file)
    throw new Refusal("name the backup file: npm run db:restore -- <file> [--replace] [--not-in-use]");
  const config = loadServiceEnv();
  if (config.databaseUrl) {
    throw new Refusal("DATABASE_URL is set: restore a PostgreSQL database with pg_restore, not this command");
  }
  const dataDir = config.pgliteDir;
  if (dataDir.startsWith("memory://")) throw new Refusal("PGLITE_DIR is memory://: nothing to restore into");
  await restoreBackup({
    file,
    dataDir,
    replace: flags.has("replace"),
    notInUse: flags.has(NOT_IN_USE_FLAG),
  });
  console.log(`Restored into ${dataDir}. Start the service: it applies any newer migrations.`);
  return 0;
});
