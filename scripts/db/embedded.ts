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
  /** A postmaster.pid that no process backs: left by one killed before it closed the database. */
  | { state: "stale" }
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
  return blind ? { state: "unknown" } : { state: "stale" };
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

/** Unpacks a backup file (db:backup's) into an empty directory, refusing one that holds no database. */
export async function unpackBackup(file: string, into: string): Promise<void> {
  if (!existsSync(file)) throw new Refusal(`no backup file at ${file}`);
  await extractTarGz(file, into);
  if (!hasDatabase(into)) throw new Refusal(`${file} holds no embedded database`);
}

/** Refuses when another process has the directory open: a second PGlite on it would corrupt it. */
export function refuseIfHeld(dataDir: string, what: string): void {
  const holder = embeddedHolder(dataDir);
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
