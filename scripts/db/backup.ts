/**
 * `npm run db:backup -- [file] [--from <origin>] [--not-in-use]`: a consistent backup of the embedded database, as a
 * gzipped tar of its data directory. While the service has the directory open it alone may read it, so
 * the running service takes it (POST /ops/backup with OPS_TOKEN); stopped, the directory is packed here.
 * The file is checked by opening it before the command says it is done.
 */
import { createWriteStream, mkdirSync, renameSync, rmSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { tarGz } from "../../lib/ops/tar";
import { loadServiceEnv, parseArgs, Refusal, runCommand } from "./cli";
import {
  embeddedHolder,
  hasDatabase,
  NOT_IN_USE_FLAG,
  openBackup,
  refuseIfHeld,
  unpackBackup,
} from "./embedded";
import { formatSummary, summarize } from "./summary";

const DOCS = "docs/operations.md#backups-and-moving-to-postgresql";

/** The backup, taken by the running service that holds the directory. */
async function fromService(origin: string, token: string | undefined, dataDir: string, pids: string) {
  if (!token) {
    throw new Refusal(
      `${dataDir} is open in ${pids}: the running service must take the backup. Set OPS_TOKEN (the service's) here, or stop the service first`,
    );
  }
  const url = new URL("/ops/backup", origin);
  const res = await fetch(url, { method: "POST", headers: { authorization: `Bearer ${token}` } }).catch(
    (error: Error) => {
      throw new Refusal(`${dataDir} is open in ${pids}, and ${url.origin} did not answer (${error.message})`);
    },
  );
  if (res.status === 404) throw new Refusal(`${url.origin} has no OPS_TOKEN set (or no /ops/backup): 404`);
  if (res.status === 401) throw new Refusal(`${url.origin} refused this OPS_TOKEN (401)`);
  if (!res.ok || !res.body) {
    throw new Refusal(`${url.origin} answered ${res.status}: ${(await res.text()).slice(0, 300)}`);
  }
  console.log(`Taken by the service at ${url.origin} (it has ${dataDir} open).`);
  return Readable.fromWeb(res.body as import("node:stream/web").ReadableStream<Uint8Array>);
}

/** The backup, packed here from a directory no process has open. */
function fromDirectory(dataDir: string, notInUse: boolean) {
  if (!hasDatabase(dataDir)) throw new Refusal(`no embedded database in ${dataDir}`);
  refuseIfHeld(dataDir, "pack it here", notInUse);
  const left =
    embeddedHolder(dataDir).state === "unseen" ? "; --not-in-use: its postmaster.pid is a leftover" : "";
  console.log(`Taken from ${dataDir} directly (no process has it open${left}).`);
  return tarGz(dataDir);
}

await runCommand(async () => {
  const { values, flags, positional } = parseArgs(process.argv.slice(2), ["from"], [NOT_IN_USE_FLAG]);
  const config = loadServiceEnv();
  if (config.databaseUrl) {
    throw new Refusal(`DATABASE_URL is set: the data is in PostgreSQL; back it up with pg_dump (${DOCS})`);
  }
  if (config.pgliteDir.startsWith("memory://")) throw new Refusal("PGLITE_DIR is memory://: nothing on disk");
  const stamp = new Date().toISOString().replace(/[:.]/g, "-");
  const file = positional[0] ?? path.join("backups", `pglite-${stamp}.tar.gz`);
  const origin = values.from ?? `http://localhost:${process.env.PORT || 3000}`;

  const holder = embeddedHolder(config.pgliteDir);
  const pids = holder.state === "held" ? `process ${holder.pids.join(", ")}` : "another process";
  const body =
    holder.state === "held" || holder.state === "unknown"
      ? await fromService(origin, config.opsToken, config.pgliteDir, pids)
      : fromDirectory(config.pgliteDir, flags.has(NOT_IN_USE_FLAG));

  // Written beside the target and renamed: a file under the final name is always a whole backup.
  mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const partial = `${file}.partial`;
  try {
    await pipeline(body, createWriteStream(partial, { mode: 0o600 }));
    await check(partial);
    renameSync(partial, file);
  } finally {
    rmSync(partial, { force: true });
  }
  console.log(`Backup written to ${file}. Restore it with: npm run db:restore -- ${file}`);
  return 0;
});

/** Opens the backup in a scratch directory, as a restore would, and prints what it holds. */
async function check(file: string) {
  const scratch = await mkdtemp(path.join(path.dirname(path.resolve(file)), ".backup-check-"));
  try {
    await unpackBackup(file, scratch);
    const db = await openBackup(file, scratch);
    try {
      const query = async (text: string) => (await db.query<unknown[]>(text, [], { rowMode: "array" })).rows;
      console.log("The backup opens and holds:");
      for (const line of formatSummary(await summarize(query))) console.log(line);
    } finally {
      await db.close();
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
