import { existsSync, readdirSync, readlinkSync, realpathSync } from "node:fs";
import path from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import { Refusal } from "./cli";
import { extractTarGz } from "./untar";

/** Whether a process has an embedded data directory open. */
export type Holder =
  /** No postmaster.pid: nobody has it open. */
  | { state: "free" }
  /** These processes have files of it open. */
  | { state: "held"; pids: number[] }
  /**
   * A postmaster.pid no process on this machine backs: left by one killed before it closed the database,
   * or held by a process this machine cannot see (another container or host on the same volume).
   */
  | { state: "unseen" }
  /** A postmaster.pid, and some processes' open files could not be read: assume it is held. */
  | { state: "unknown" };

/**
 * PGlite writes postmaster.pid while it has a directory open, but always with pid -42, and opens a
 * directory whatever that file says: whether the file is live is read from /proc, from the files each
 * process has open (Linux). Where that cannot be read in full, a postmaster.pid counts as held.
 */
export function embeddedHolder(dataDir: string): Holder {
  if (!existsSync(path.join(dataDir, "postmaster.pid"))) return { state: "free" };
  const root = realpathSync(dataDir);
  let processes: string[];
  try {
    processes = readdirSync("/proc").filter((name) => /^\d+$/.test(name));
  } catch {
    return { state: "unknown" };
  }
  const pids: number[] = [];
  let blind = false;
  for (const pid of processes) {
    let fds: string[];
    try {
      fds = readdirSync(`/proc/${pid}/fd`);
    } catch (error) {
      // Gone since the listing is fine; another user's process we may not look into is not.
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") blind = true;
      continue;
    }
    const opened = fds.some((fd) => {
      try {
        const target = readlinkSync(`/proc/${pid}/fd/${fd}`);
        return target === root || target.startsWith(`${root}/`);
      } catch {
        return false;
      }
    });
    if (opened) pids.push(Number(pid));
  }
  if (pids.length > 0) return { state: "held", pids };
  return blind ? { state: "unknown" } : { state: "unseen" };
}

/** True when `dataDir` holds an embedded database (PostgreSQL's PG_VERSION is its first file). */
export const hasDatabase = (dataDir: string) => existsSync(path.join(dataDir, "PG_VERSION"));

/** A directory that does not exist or is empty. */
export const isEmptyDir = (dir: string) => !existsSync(dir) || readdirSync(dir).length === 0;

/**
 * Opens an embedded database as the app does (pg_trgm loaded) but without migrating it. A directory
 * unpacked from a backup taken while the service ran opens as after a crash: at its last commit.
 */
export async function openEmbedded(dataDir: string): Promise<PGlite> {
  const [{ PGlite }, { pg_trgm }] = await Promise.all([
    import("@electric-sql/pglite"),
    import("@electric-sql/pglite/contrib/pg_trgm"),
  ]);
  return PGlite.create(dataDir, { extensions: { pg_trgm } });
}

/** The words for a backup file that cannot be read through: cut short, corrupted, or not a backup at all. */
const incomplete = (file: string, why: string) =>
  new Refusal(`${file} is not a complete backup (${why}): take another with npm run db:backup`);

/** Unpacks a backup file (db:backup's) into an empty directory, refusing one that holds no database. */
export async function unpackBackup(file: string, into: string): Promise<void> {
  if (!existsSync(file)) throw new Refusal(`no backup file at ${file}`);
  try {
    await extractTarGz(file, into);
  } catch (error) {
    if (error instanceof Refusal) throw error;
    const { code, message } = error as NodeJS.ErrnoException;
    throw incomplete(file, code ?? message.split("\n")[0]!.slice(0, 120));
  }
  if (!hasDatabase(into)) throw new Refusal(`${file} holds no embedded database`);
}

/** Opens an unpacked backup, refusing in one line one whose files do not make a database. */
export async function openBackup(file: string, unpacked: string): Promise<PGlite> {
  try {
    return await openEmbedded(unpacked);
  } catch (error) {
    throw incomplete(
      file,
      `its database does not open: ${(error as Error).message.split("\n")[0]!.slice(0, 120)}`,
    );
  }
}

/** The switch an operator passes to say no process anywhere has the directory open (see refuseIfHeld). */
export const NOT_IN_USE_FLAG = "not-in-use";

/**
 * Refuses when a process may have the directory open: a second PGlite on it would corrupt it. A
 * postmaster.pid no process here backs is refused too, unless `notInUse` (--not-in-use): it may be a killed
 * process's, or one in another container on the same volume, and only the operator can tell.
 */
export function refuseIfHeld(dataDir: string, what: string, notInUse = false): void {
  const holder = embeddedHolder(dataDir);
  if (holder.state === "unseen" && !notInUse) {
    throw new Refusal(
      `${dataDir} has a postmaster.pid that no process on this machine backs. A service stopped normally (SIGTERM, systemctl stop, docker stop) removes it; one killed (kill -9, out of memory) leaves it, and so does one running in another container or on another host sharing this volume. Before you override, check that nothing has it open: systemctl status on this host, docker ps on the container hosts, ps on every host that mounts ${dataDir}. Then run this again with --${NOT_IN_USE_FLAG}`,
    );
  }
  if (holder.state === "held") {
    throw new Refusal(
      `${dataDir} is open in process ${holder.pids.join(", ")} (the service?): stop it before you ${what}`,
    );
  }
  if (holder.state === "unknown") {
    throw new Refusal(
      `${dataDir} has a postmaster.pid and this user cannot see which processes have it open: stop the service before you ${what}`,
    );
  }
}
