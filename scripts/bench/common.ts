/** Shared helpers for `npm run bench`: statistics, a closed-loop load runner, processes and machine facts. */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { Agent, request as httpRequest, type IncomingHttpHeaders } from "node:http";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { gunzipSync, inflateSync } from "node:zlib";
import { freePort } from "../devnet/anvil";

export { freePort };

export const ROOT = path.resolve(import.meta.dirname, "../..");
const require = createRequire(import.meta.url);
export const NEXT_BIN = require.resolve("next/dist/bin/next");

export function envNumber(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < 0) throw new Error(`${name} must be a non-negative number, got "${raw}"`);
  return n;
}

export const QUICK = process.env.BENCH_QUICK === "1";

export type Summary = { n: number; mean: number; p50: number; p95: number; p99: number; max: number };

/** Percentiles (nearest rank) in milliseconds, rounded to 0.01 ms. */
export function summarize(samples: number[]): Summary {
  const s = [...samples].sort((a, b) => a - b);
  const at = (q: number) => (s.length ? s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)]! : Number.NaN);
  const r = (x: number) => Math.round(x * 100) / 100;
  const mean = s.length ? s.reduce((a, b) => a + b, 0) / s.length : Number.NaN;
  return {
    n: s.length,
    mean: r(mean),
    p50: r(at(0.5)),
    p95: r(at(0.95)),
    p99: r(at(0.99)),
    max: r(s.at(-1) ?? NaN),
  };
}

export const now = () => performance.now();

export type LoadResult = {
  concurrency: number;
  requests: number;
  ok: number;
  errors: number;
  errorSamples: string[];
  wallMs: number;
  rps: number;
  latency: Summary;
};

/**
 * Runs `count` tasks with at most `concurrency` in flight (closed loop); each task returns an error
 * string or null. Latency is per task, from its start or from when it calls `startClock` (work before
 * that, such as signing a payment, is left out); throughput is completed-ok tasks over wall time.
 */
export async function closedLoop(
  count: number,
  concurrency: number,
  task: (i: number, startClock: () => void) => Promise<string | null>,
): Promise<LoadResult> {
  const latencies: number[] = [];
  const errorSamples: string[] = [];
  let next = 0;
  let ok = 0;
  let errors = 0;
  const start = now();
  const worker = async () => {
    while (next < count) {
      const i = next++;
      let t0 = now();
      let failure: string | null;
      try {
        failure = await task(i, () => {
          t0 = now();
        });
      } catch (error) {
        failure = error instanceof Error ? error.message : String(error);
      }
      const dt = now() - t0;
      if (failure === null) {
        ok++;
        latencies.push(dt);
      } else {
        errors++;
        if (errorSamples.length < 5) errorSamples.push(failure.slice(0, 300));
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
  return loadResult(concurrency, count, { ok, errors, errorSamples, latencies }, now() - start);
}

function loadResult(
  concurrency: number,
  requests: number,
  done: { ok: number; errors: number; errorSamples: string[]; latencies: number[] },
  wallMs: number,
): LoadResult {
  return {
    concurrency,
    requests,
    ok: done.ok,
    errors: done.errors,
    errorSamples: done.errorSamples,
    wallMs: Math.round(wallMs),
    rps: Math.round((done.ok / (wallMs / 1000)) * 100) / 100,
    latency: summarize(done.latencies),
  };
}

/**
 * Open loop: `count` tasks started at a fixed `ratePerSecond`, whatever is still in flight, so a slow
 * answer cannot slow the arrivals down (in a closed loop it does, and latency then locks to the pace of
 * the slowest step, here the chain's blocks). Each task gets its index and a prepared input; latency is
 * from its scheduled start (a late start counts against it), throughput is completed-ok tasks over the
 * time from the first arrival to the last answer.
 */
export async function openLoop(
  count: number,
  ratePerSecond: number,
  task: (i: number) => Promise<string | null>,
): Promise<LoadResult & { ratePerSecond: number; maxInFlight: number }> {
  const latencies: number[] = [];
  const errorSamples: string[] = [];
  let ok = 0;
  let errors = 0;
  let inFlight = 0;
  let maxInFlight = 0;
  const start = now();
  const interval = 1000 / ratePerSecond;
  const runs: Promise<void>[] = [];
  for (let i = 0; i < count; i++) {
    const due = start + i * interval;
    const wait = due - now();
    if (wait > 0) await sleep(wait);
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    runs.push(
      task(i)
        .catch((error: unknown) => (error instanceof Error ? error.message : String(error)))
        .then((failure) => {
          inFlight--;
          if (failure === null) {
            ok++;
            latencies.push(now() - due);
          } else {
            errors++;
            if (errorSamples.length < 5) errorSamples.push(failure.slice(0, 300));
          }
        }),
    );
  }
  await Promise.all(runs);
  return {
    ...loadResult(maxInFlight, count, { ok, errors, errorSamples, latencies }, now() - start),
    ratePerSecond,
    maxInFlight,
  };
}

/** Kept-alive sockets for one level's calls; `destroy()` it when the level ends. */
export const keepAliveAgent = () => new Agent({ keepAlive: true });

/**
 * A JSON POST through node:http: the load generator's client for timed calls. It asks for what fetch
 * asks for (gzip or deflate, which the server may then spend CPU on) but costs the load generator a
 * fraction of fetch's CPU, which on this 2-core machine is taken from the server under test.
 */
export function postJson(
  agent: Agent,
  url: string,
  headers: Record<string, string>,
  body: string,
): Promise<{ status: number; text: string; headers: IncomingHttpHeaders }> {
  return requestText(
    agent,
    "POST",
    url,
    {
      "content-type": "application/json",
      "content-length": String(Buffer.byteLength(body)),
      ...headers,
    },
    body,
  );
}

/** A GET through node:http, asking for gzip or deflate as fetch does; see `postJson`. */
export function getText(
  agent: Agent,
  url: string,
  headers: Record<string, string>,
): Promise<{ status: number; text: string; headers: IncomingHttpHeaders }> {
  return requestText(agent, "GET", url, headers);
}

function requestText(
  agent: Agent,
  method: "GET" | "POST",
  url: string,
  headers: Record<string, string>,
  body?: string,
): Promise<{ status: number; text: string; headers: IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      { method, agent, headers: { "accept-encoding": "gzip, deflate", ...headers } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("error", reject);
        res.on("end", () => {
          try {
            const raw = Buffer.concat(chunks);
            const encoding = res.headers["content-encoding"];
            const text = (
              encoding === "gzip" ? gunzipSync(raw) : encoding === "deflate" ? inflateSync(raw) : raw
            ).toString("utf8");
            resolve({ status: res.statusCode ?? 0, text, headers: res.headers });
          } catch (error) {
            reject(error);
          }
        });
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

export type NextApp = { url: string; pid: number; stop: () => Promise<void> };

/** `next start` in its own process group (as e2e/global-setup.ts does), waiting until it answers. */
export async function startNext(options: {
  dir: string;
  port: number;
  env: Record<string, string>;
  probePath?: string;
  log?: string;
}): Promise<NextApp> {
  // BENCH_CPU_PROF=<dir>: each server writes a V8 CPU profile there when it stops (open in Chrome DevTools).
  const app: ChildProcess = spawn(
    process.execPath,
    [
      ...(process.env.BENCH_CPU_PROF ? ["--cpu-prof", `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : []),
      NEXT_BIN,
      "start",
      options.dir,
      "--port",
      String(options.port),
      "--hostname",
      "127.0.0.1",
    ],
    {
      cwd: options.dir,
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, NODE_ENV: "production", ...options.env },
    },
  );
  const tail: string[] = [];
  const keep = (chunk: Buffer) => {
    tail.push(chunk.toString());
    if (tail.length > 200) tail.shift();
  };
  app.stdout?.on("data", keep);
  app.stderr?.on("data", keep);
  const pid = app.pid!;
  const kill = (signal: NodeJS.Signals) => {
    try {
      process.kill(-pid, signal);
    } catch {}
  };
  const stop = async () => {
    if (app.exitCode !== null) return;
    kill("SIGTERM");
    const deadline = Date.now() + 10_000;
    while (app.exitCode === null && Date.now() < deadline) await sleep(100);
    kill("SIGKILL");
  };
  const url = `http://127.0.0.1:${options.port}`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (app.exitCode !== null) {
      throw new Error(
        `next start (${options.dir}) exited with ${app.exitCode}:\n${tail.join("").slice(-3000)}`,
      );
    }
    try {
      const res = await fetch(`${url}${options.probePath ?? "/"}`);
      await res.arrayBuffer();
      if (res.status < 500) break;
    } catch {}
    if (Date.now() > deadline) {
      kill("SIGKILL");
      throw new Error(`next start (${options.dir}) did not answer within 120 s`);
    }
    await sleep(250);
  }
  return { url, pid, stop };
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The process in `pgid`'s group that is next-server (the largest one when the title is not set). */
export function nextServerPid(pgid: number): number {
  let best = pgid;
  let bestRss = -1;
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(fields[2]) !== pgid) continue;
      const cmd = readFileSync(`/proc/${entry}/cmdline`, "utf8");
      const rss = rssKiB(Number(entry)) ?? 0;
      const score = cmd.includes("next-server") ? rss + 1e12 : rss;
      if (score > bestRss) {
        bestRss = score;
        best = Number(entry);
      }
    } catch {}
  }
  return best;
}

let clockTicks: number | undefined;
/** Kernel clock ticks per second, in which /proc reports CPU time. */
function ticksPerSecond(): number {
  if (clockTicks === undefined) {
    try {
      clockTicks = Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;
    } catch {
      clockTicks = 100;
    }
  }
  return clockTicks;
}

/** CPU time (user + system, ms) a process has used so far, from /proc/<pid>/stat. */
export function processCpuMs(pid: number): number | null {
  try {
    return statOf(readFileSync(`/proc/${pid}/stat`, "utf8")).ms;
  } catch {
    return null;
  }
}

/** A /proc/<pid>/stat line's command name and CPU time (user + system, ms). */
function statOf(stat: string): { comm: string; ms: number } {
  const comm = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return { comm, ms: ((Number(fields[11]) + Number(fields[12])) * 1000) / ticksPerSecond() };
}

/** Busy CPU time (ms, summed over cores) of the whole machine so far, from /proc/stat. */
export function machineBusyMs(): number {
  const [, ...ticks] = readFileSync("/proc/stat", "utf8").split("\n")[0]!.trim().split(/\s+/);
  const [user, nice, system, , , irq, softirq, steal] = ticks.map(Number);
  return (
    (((user ?? 0) + (nice ?? 0) + (system ?? 0) + (irq ?? 0) + (softirq ?? 0) + (steal ?? 0)) * 1000) /
    ticksPerSecond()
  );
}

/** CPU time (ms) of every process on the machine now, by pid, with its command name. */
export function processesCpu(): Map<number, { comm: string; ms: number }> {
  const out = new Map<number, { comm: string; ms: number }>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      out.set(Number(entry), statOf(readFileSync(`/proc/${entry}/stat`, "utf8")));
    } catch {
      // gone between the listing and the read
    }
  }
  return out;
}

/** Where the machine's busy time went between two `processesCpu` readings (ms). */
export type CpuShares = {
  /** The process under test (a server, or the ceiling's own process). */
  server: number;
  postgres: number;
  anvil: number;
  /** This process: the load generator. */
  loadGenerator: number;
  /** Every other process, the kernel's own work (interrupts, the network stack's softirqs) and what exited. */
  rest: number;
};

export function cpuShares(
  before: Map<number, { comm: string; ms: number }>,
  after: Map<number, { comm: string; ms: number }>,
  machineMs: number,
  serverPid: number,
): CpuShares {
  const shares: CpuShares = { server: 0, postgres: 0, anvil: 0, loadGenerator: 0, rest: 0 };
  let counted = 0;
  for (const [pid, { comm, ms }] of after) {
    const spent = ms - (before.get(pid)?.ms ?? 0);
    if (spent <= 0) continue;
    const key: keyof CpuShares | null =
      pid === serverPid
        ? "server"
        : pid === process.pid
          ? "loadGenerator"
          : comm === "postgres"
            ? "postgres"
            : comm === "anvil"
              ? "anvil"
              : null;
    if (key) {
      shares[key] += spent;
      counted += spent;
    }
  }
  shares.rest = Math.max(0, machineMs - counted);
  return shares;
}

export function rssKiB(pid: number): number | null {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return m ? Number(m[1]) : null;
  } catch {
    return null;
  }
}

function pkgVersion(name: string): string {
  try {
    return (
      JSON.parse(readFileSync(path.join(ROOT, "node_modules", name, "package.json"), "utf8")) as {
        version: string;
      }
    ).version;
  } catch {
    return "missing";
  }
}

export function machineInfo(databaseUrl: string | undefined) {
  let postgresServer: string | undefined;
  if (databaseUrl) {
    try {
      postgresServer = execFileSync("psql", [databaseUrl, "-Atc", "show server_version"], {
        encoding: "utf8",
        timeout: 5000,
      }).trim();
    } catch {
      postgresServer = "unknown (psql not available)";
    }
  }
  return {
    cpu: os.cpus()[0]?.model ?? "unknown",
    cores: os.cpus().length,
    memoryGiB: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
    loadAverageAtStart: os.loadavg().map((x) => Math.round(x * 100) / 100),
    os: `${os.type()} ${os.release()}`,
    node: process.version,
    versions: {
      next: pkgVersion("next"),
      "@x402/core": pkgVersion("@x402/core"),
      "@x402/evm": pkgVersion("@x402/evm"),
      "@x402/next": pkgVersion("@x402/next"),
      mppx: pkgVersion("mppx"),
      viem: pkgVersion("viem"),
      postgres: pkgVersion("postgres"),
      "@electric-sql/pglite": pkgVersion("@electric-sql/pglite"),
      "drizzle-orm": pkgVersion("drizzle-orm"),
      anvil: pkgVersion("@foundry-rs/anvil"),
      ...(postgresServer ? { "postgresql-server": postgresServer } : {}),
    },
  };
}

/** Runs a TypeScript file in a child node with the react-server condition (so lib's "server-only" loads). */
export function runInProcessChild(
  script: string,
  args: string[],
  env: Record<string, string>,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--conditions=react-server", "--import", "tsx", script, ...args], {
      cwd: ROOT,
      stdio: ["ignore", "inherit", "inherit"],
      env: { ...process.env, NODE_ENV: "production", ...env },
    });
    child.on("error", reject);
    child.on("exit", (code) =>
      code === 0 ? resolve() : reject(new Error(`${path.basename(script)} ${args[0]} exited with ${code}`)),
    );
  });
}

export type ChainPoint = { restore: () => Promise<void> };

/**
 * A point on an anvil chain to come back to: `restore()` reverts every block and state since (evm_revert)
 * and marks the point again, since anvil forgets a snapshot once reverted to. anvil slows as a run's
 * payments pile up (on this machine the facilitator's settle alone fell from 105 to 43 req/s over 3,800
 * payments, and was back at 86 after a revert), so each timed run starts from the same chain.
 */
export async function chainPoint(rpcUrl: string): Promise<ChainPoint> {
  const rpc = async <T>(method: string, params: unknown[] = []): Promise<T> => {
    const res = await fetch(rpcUrl, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
    });
    const body = (await res.json()) as { result?: T; error?: { message: string } };
    if (body.error || body.result === undefined) {
      throw new Error(`${method}: ${body.error?.message ?? `no result (HTTP ${res.status})`}`);
    }
    return body.result;
  };
  let id = await rpc<string>("evm_snapshot");
  return {
    restore: async () => {
      if (!(await rpc<boolean>("evm_revert", [id]))) throw new Error(`evm_revert: snapshot ${id} unknown`);
      // anvil keeps its transaction pool across a revert: a transaction still waiting there holds a nonce
      // of the old state, and the next run's transaction with that nonce may never be mined (the likely
      // cause of 15 settles of the ceiling timing out in one repeat). The reverted chain starts empty.
      await rpc<unknown>("anvil_dropAllTransactions");
      id = await rpc<string>("evm_snapshot");
    },
  };
}

/**
 * Whether a plan sorts rows itself: a Sort node (or an incremental one) means the index only filtered,
 * so every matching row was read and sorted for one page. A Merge Append of ordered index ranges (one
 * per status of a several-status filter) has a sort key but reads only what the page needs.
 */
export function sortsRows(plan: string): boolean {
  return /(?:^|->\s+)(?:Incremental )?Sort\s+\(/m.test(plan);
}
