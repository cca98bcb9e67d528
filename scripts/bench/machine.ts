/** The machine's facts, and where its CPU goes, read from /proc. */
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { ROOT } from "./config";
import { now } from "./load";

// /proc counts CPU time in USER_HZ ticks, 100 a second on Linux whatever the kernel's own tick rate.
const TICKS = 100;
const read = (file: string) => {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return null; // the process is gone
  }
};

type Stat = { comm: string; ms: number; pgid: number };
/** A process's command name, CPU time so far (user + system, ms) and process group, from /proc/<pid>/stat. */
function statOf(pid: number | string): Stat | null {
  const stat = read(`/proc/${pid}/stat`);
  if (!stat) return null;
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const ms = ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS;
  return { comm: stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")")), ms, pgid: Number(fields[2]) };
}
export const processCpuMs = (pid: number) => statOf(pid)?.ms ?? null;
export function rssKiB(pid: number) {
  const m = /VmRSS:\s+(\d+) kB/.exec(read(`/proc/${pid}/status`) ?? "");
  return m ? Number(m[1]) : null;
}

function processesCpu() {
  const out = new Map<number, Stat>();
  for (const pid of readdirSync("/proc").filter((e) => /^\d+$/.test(e))) {
    const stat = statOf(pid);
    if (stat) out.set(Number(pid), stat);
  }
  return out;
}

/** Busy CPU time (ms, summed over cores) of the whole machine so far. */
function machineBusyMs(): number {
  const [, user, nice, system, , , irq, softirq, steal] = readFileSync("/proc/stat", "utf8").split(/\s+/);
  return ([user, nice, system, irq, softirq, steal].reduce((a, t) => a + (Number(t) || 0), 0) * 1000) / TICKS;
}

/** Where the machine's busy time went (ms); `server` is the process under test, `rest` the kernel and others. */
export type CpuShares = Record<"server" | "postgres" | "anvil" | "loadGenerator" | "rest", number>;

function cpuShares(before: Map<number, Stat>, after: Map<number, Stat>, machineMs: number, pid0: number) {
  const shares: CpuShares = { server: 0, postgres: 0, anvil: 0, loadGenerator: 0, rest: machineMs };
  for (const [pid, { comm, ms }] of after) {
    const spent = ms - (before.get(pid)?.ms ?? 0);
    const named = comm === "postgres" || comm === "anvil" ? comm : null;
    const key = pid === pid0 ? "server" : pid === process.pid ? "loadGenerator" : named;
    if (spent > 0 && key) {
      shares[key] += spent;
      shares.rest -= spent;
    }
  }
  shares.rest = Math.max(0, shares.rest);
  return shares;
}

/** Starts counting CPU: the returned function tells the server's, the machine's and its split since. */
export function cpuMeter(pid: number) {
  const [server, machine, processes, at] = [processCpuMs(pid) ?? 0, machineBusyMs(), processesCpu(), now()];
  return () => {
    const machineMs = machineBusyMs() - machine;
    const [serverMs, elapsedMs] = [(processCpuMs(pid) ?? 0) - server, now() - at];
    return { serverMs, machineMs, elapsedMs, shares: cpuShares(processes, processesCpu(), machineMs, pid) };
  };
}

/** The process in `pgid`'s group that is next-server (the largest one when the title is not set). */
export function nextServerPid(pgid: number): number {
  const score = (pid: number) =>
    (rssKiB(pid) ?? 0) + (read(`/proc/${pid}/cmdline`)?.includes("next-server") ? 1e12 : 0);
  const group = [...processesCpu()].filter(([, s]) => s.pgid === pgid).map(([pid]) => pid);
  return group.sort((a, b) => score(b) - score(a))[0] ?? pgid;
}

const PACKAGES =
  "next @x402/core @x402/evm @x402/next mppx viem postgres @electric-sql/pglite drizzle-orm".split(" ");
const version = (name: string) =>
  JSON.parse(read(path.join(ROOT, "node_modules", name, "package.json")) ?? '{"version":"missing"}').version;

export function machineInfo(databaseUrl: string | undefined) {
  let server: string | undefined;
  const options = { encoding: "utf8", timeout: 5000 } as const;
  try {
    if (databaseUrl)
      server = execFileSync("psql", [databaseUrl, "-Atc", "show server_version"], options).trim();
  } catch {
    server = "unknown (psql not available)";
  }
  const versions: Record<string, string> = Object.fromEntries(PACKAGES.map((name) => [name, version(name)]));
  versions.anvil = version("@foundry-rs/anvil");
  if (server) versions["postgresql-server"] = server;
  return {
    cpu: os.cpus()[0]?.model ?? "unknown",
    cores: os.cpus().length,
    memoryGiB: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
    loadAverageAtStart: os.loadavg().map((x) => Math.round(x * 100) / 100),
    os: `${os.type()} ${os.release()}`,
    node: process.version,
    versions,
  };
}
