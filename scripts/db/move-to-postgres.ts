/**
 * `npm run db:move-to-postgres -- [--from <data dir | backup file>] [--not-in-use]`: copies the embedded database (PGLITE_DIR
 * by default, or a db:backup file) into the empty PostgreSQL database of DATABASE_URL, with the service
 * stopped; compares both sides before it commits, and exits 1 on any difference.
 */
import { rmSync, statSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import path from "node:path";
import postgres from "postgres";
import { loadServiceEnv, parseArgs, Refusal, runCommand } from "./cli";
import {
  hasDatabase,
  NOT_IN_USE_FLAG,
  openBackup,
  openEmbedded,
  refuseIfHeld,
  unpackBackup,
} from "./embedded";
import { moveToPostgres } from "./move";

await runCommand(async () => {
  const { values, flags } = parseArgs(process.argv.slice(2), ["from"], [NOT_IN_USE_FLAG]);
  const config = loadServiceEnv();
  if (!config.databaseUrl) throw new Refusal("set DATABASE_URL to the PostgreSQL database to move into");
  const from = values.from ?? config.pgliteDir;
  if (from.startsWith("memory://")) throw new Refusal("PGLITE_DIR is memory://: nothing on disk to move");

  const isFile = statSync(from, { throwIfNoEntry: false })?.isFile() ?? false;
  // A backup is opened in a scratch directory of its own; a data directory where it is, once it is free.
  const scratch = isFile
    ? await mkdtemp(path.join(path.dirname(path.resolve(from)), ".move-from-"))
    : undefined;
  if (!isFile) {
    if (!hasDatabase(from)) throw new Refusal(`no embedded database in ${from}`);
    refuseIfHeld(from, "move it (the move reads it at rest)", flags.has(NOT_IN_USE_FLAG));
  }
  const target = postgres(config.databaseUrl, {
    max: 1,
    onnotice: () => {},
    connection: { TimeZone: "UTC", DateStyle: "ISO, MDY", application_name: "db-move-to-postgres" },
  });
  const started = performance.now();
  try {
    if (scratch) await unpackBackup(from, scratch);
    const source = scratch ? await openBackup(from, scratch) : await openEmbedded(from);
    try {
      console.log(`Moving ${from} into PostgreSQL at ${new URL(config.databaseUrl).host}:`);
      const same = await moveToPostgres({ source, target, targetUrl: config.databaseUrl, log: console.log });
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      if (!same) return 1;
      console.log(`Moved in ${seconds} s. Set DATABASE_URL in the service's environment and start it.`);
      return 0;
    } finally {
      await source.close();
    }
  } finally {
    await target.end();
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  }
});
