/**
 * `npm run db:restore -- <file> [--replace] [--not-in-use]`: loads a backup (db:backup's tarball) into PGLITE_DIR, with
 * the service stopped. A directory that already holds a database is kept: refused, or with --replace
 * moved aside (never deleted). The backup is loaded into a sibling directory first and put in place
 * only once it opened, so a failed restore leaves PGLITE_DIR as it was.
 */
import { existsSync, renameSync, rmSync } from "node:fs";
import path from "node:path";
import { loadServiceEnv, parseArgs, Refusal, runCommand } from "./cli";
import { isEmptyDir, NOT_IN_USE_FLAG, openBackup, refuseIfHeld, unpackBackup } from "./embedded";
import { formatSummary, summarize } from "./summary";

await runCommand(async () => {
  const { flags, positional } = parseArgs(process.argv.slice(2), [], ["replace", NOT_IN_USE_FLAG]);
  const file = positional[0];
  if (!file)
    throw new Refusal("name the backup file: npm run db:restore -- <file> [--replace] [--not-in-use]");
  const notInUse = flags.has(NOT_IN_USE_FLAG);
  const config = loadServiceEnv();
  if (config.databaseUrl) {
    throw new Refusal("DATABASE_URL is set: restore a PostgreSQL database with pg_restore, not this command");
  }
  const dataDir = config.pgliteDir;
  if (dataDir.startsWith("memory://")) throw new Refusal("PGLITE_DIR is memory://: nothing to restore into");
  const occupied = !isEmptyDir(dataDir);
  if (occupied) {
    refuseIfHeld(dataDir, "restore into it", notInUse);
    if (!flags.has("replace")) {
      throw new Refusal(
        `${dataDir} is not empty. Restore into another PGLITE_DIR, or add --replace to move it aside first`,
      );
    }
  }

  const stamp = new Date().toISOString().replace(/[:.]/g, "-");
  const loading = path.join(
    path.dirname(path.resolve(dataDir)),
    `.${path.basename(dataDir)}.restoring-${stamp}`,
  );
  try {
    await unpackBackup(file, loading);
    const db = await openBackup(file, loading);
    try {
      const query = async (text: string) => (await db.query<unknown[]>(text, [], { rowMode: "array" })).rows;
      console.log(`${file} opens and holds:`);
      for (const line of formatSummary(await summarize(query))) console.log(line);
    } finally {
      // A clean close also removes the postmaster.pid the live copy carried.
      await db.close();
    }
    // Unpacking takes a while: a service started meanwhile must not have its directory moved away.
    if (occupied) refuseIfHeld(dataDir, "restore into it", notInUse);
    if (occupied) {
      const aside = `${path.resolve(dataDir)}.replaced-${stamp}`;
      renameSync(dataDir, aside);
      console.log(`The database that was in ${dataDir} is now in ${aside}.`);
    } else if (existsSync(dataDir)) {
      rmSync(dataDir, { recursive: true });
    }
    renameSync(loading, dataDir);
  } finally {
    rmSync(loading, { recursive: true, force: true });
  }
  console.log(`Restored into ${dataDir}. Start the service: it applies any newer migrations.`);
  return 0;
});
