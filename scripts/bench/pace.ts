/**
 * `npm run bench:pace`: paid submissions at a real chain's pace. A devnet without instant mining (a block
 * every 2 s on the EVM chain, as on Base; every 0.6 s on Tempo: scripts/devnet/pace.ts), our production
 * build and the two anchors (`withX402`, mppx's handler) on it, and payments arriving at fixed rates
 * (open loop) for BENCH_PACE_SECONDS each. Per level: ok / sent, latency from the scheduled arrival, most
 * in flight, the database's connections in use and transactions left open (sampled from pg_stat_activity),
 * and the server's RSS. Writes scripts/bench/results/pace.json and pace.md (docs/benchmarks.md).
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import postgres from "postgres";
import { createPublicClient, http } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { startRpcProxy } from "@/testing/rpc-proxy";
import { startNginx } from "../../e2e/chaos/nginx";
import { createMppFetch } from "../clients/mpp-payer";
import { freePort } from "../devnet/anvil";
import { devnetAppEnv } from "../devnet/app-env";
import { TEMPO_BLOCK_SECONDS } from "../devnet/pace";
import { startDevnet } from "../devnet/start-devnet";
import { mppBaseline, x402Baseline } from "./baseline";
import { DATABASE_URL, DIST_DIR, QUICK, ROOT } from "./config";
import { keepAliveAgent, type LoadResult, message, now, openLoop, send, sleep, summarize } from "./load";
import { machineInfo, nextServerPid, rssKiB } from "./machine";
import { ask402, feedbackBody, Not402, x402Payers } from "./paid";
import { buildApp, startNext } from "./servers";
import { x402Challenge } from "./x402";

const EVM_BLOCK_SECONDS = 2;
/** The key of x402 on two instances behind nginx. */
const PAIR = "x402x2";
const rates = (process.env.BENCH_PACE_RATES || (QUICK ? "5" : "25,50,100")).split(",").map(Number);
const seconds = Number(process.env.BENCH_PACE_SECONDS || (QUICK ? 10 : 60));
/** Which servers to measure (x402, withX402, mpp, mppx), for a look at one; every one by default. */
const only = process.env.BENCH_PACE_TARGETS?.split(",");
/**
 * The rates at which x402 is also measured on two instances of our build behind nginx (deploy/nginx.conf),
 * each with its own facilitator key: the levels one process's JavaScript thread cannot carry alone.
 */
const pairRates = (process.env.BENCH_PACE_PAIR_RATES ?? (QUICK ? "5" : "100"))
  .split(",")
  .filter(Boolean)
  .map(Number);
/** Where the results go: a look at a few levels (BENCH_PACE_OUT) leaves the run of record as it is. */
const OUT = path.resolve(
  ROOT,
  process.env.BENCH_PACE_OUT || path.join("scripts/bench/results", QUICK ? "pace-quick.json" : "pace.json"),
);

type Target = {
  key: string;
  label: string;
  protocol: "x402" | "mpp";
  url: string;
  /** The server's main-thread process, one per instance serving `url`. */
  pids: number[];
  /** Our instances' own origins (their /metrics); none for an anchor. */
  origins: string[];
  ours: boolean;
  /** The rates this target is measured at, when not every one. */
  rates?: number[];
  /** The RPC of the chain whose blocks the payments wait for, where that leaves time between blocks. */
  blocksOf?: string;
};
type DbPeak = {
  open: number;
  active: number;
  idleInTransaction: number;
  samples: number;
  /** What the connections were running at the busiest sample: the statement's first words, and how many. */
  busiest: Record<string, number>;
  /**
   * The most connections active at a sample taken while the level's payments waited for a block: more than
   * BETWEEN_BLOCKS_MS after the chain's last new block (EVM levels only; Tempo's blocks leave no such time).
   */
  activeBetweenBlocks: number | null;
  samplesBetweenBlocks: number;
  /**
   * The oldest transaction open at any sample (ms since it began) and what it was running: what a connection
   * held across a block's wait would show, however few connections were in use. Absent in runs before it.
   */
  oldestTransaction?: { ms: number; what: string };
  /** The longest-running statement at any sample (ms since it was sent). */
  longestStatementMs?: number;
  /** What the active statements were waiting on, summed over the samples ("on CPU" when on nothing). */
  waits?: Record<string, number>;
};

/** A sample this long after a new block is taken while payments wait for the next (EVM: 2 s blocks). */
const BETWEEN_BLOCKS_MS = 700;

type PaceLevel = LoadResult & {
  key: string;
  label: string;
  protocol: "x402" | "mpp";
  /** Instances of the server behind the level's URL (absent in runs before two were measured: one). */
  instances?: number;
  rate: number;
  sent: number;
  maxInFlight: number;
  /** Throughput: ok answers per second of the level's wall time. */
  okPerSecond: number;
  /** The paid call alone (its request sent → its answer), without the client's 402 and signing. */
  paid: ReturnType<typeof summarize>;
  /**
   * Calls refused at once while the server was past its CPU (503 service-busy, nothing charged), and how long
   * the refusals took from arrival (absent in runs before load shedding).
   */
  shed?: { n: number; latency: ReturnType<typeof summarize> };
  /** How long the level waited, before its first call, for the machine to be quiet (absent in runs before it waited). */
  quietWaitMs?: number;
  /** Every failed call by its kind (status and problem type, or the client's error), shed ones included. */
  failures?: Record<string, number>;
  db: DbPeak | null;
  /** Our pool's own counts over the level (its /metrics): sent, waited for a connection, most in flight. */
  pool: PoolWindow | null;
  /** The server's resident memory at its most, summed over its instances. */
  rssMiB: number | null;
  /** How busy the machine's CPUs were over the level's arrivals (0 to 1, from /proc/stat); absent where unreadable. */
  cpuBusy?: number | null;
  /**
   * How busy the server's main thread was over the level's arrivals (0 to 1 of one core, from /proc/<pid>/task/<pid>/stat):
   * JavaScript runs there, so at 1 the process can take no more, however idle the other core. With several
   * instances, their threads' average.
   */
  mainThreadBusy?: number | null;
  /** Cores used on average over the level's arrivals by PostgreSQL's processes and by the chains (anvil), all of them. */
  helperCores?: Record<keyof typeof HELPERS, number> | null;
  /**
   * The server's main-thread CPU per ok call over the whole level (ms, all instances' threads together), and what
   * the level's rate asks of each instance's thread at that cost (cores): at 1 or more, the instances cannot keep
   * up, busy or not between blocks.
   */
  mainThreadMsPerCall?: number | null;
  mainThreadDemand?: number | null;
};

/** The CPU time of processes' main threads so far, in seconds, summed (Linux); null where one is unreadable. */
function mainThreadSeconds(pids: number[]): number | null {
  if (pids.length === 0) return null;
  try {
    return pids.reduce(
      (sum, pid) => sum + cpuSecondsOf(readFileSync(`/proc/${pid}/task/${pid}/stat`, "utf8")),
      0,
    );
  } catch {
    return null;
  }
}

/** Linux's USER_HZ on every architecture Node runs on. */
const CLOCK_TICKS = 100;

/** The CPU seconds (user and system) a `/proc/.../stat` line counts. */
function cpuSecondsOf(stat: string): number {
  // After the command's closing parenthesis: the 14th and 15th fields are utime and stime, in clock ticks.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
}

/** The processes whose CPU each level reads beside the server's: the database's and the chains'. */
const HELPERS = { postgres: "postgres", anvil: "anvil" } as const;

/** CPU seconds so far of every process whose command is one of HELPERS (Linux); null elsewhere. */
function helperSeconds(): Record<keyof typeof HELPERS, number> | null {
  const total = { postgres: 0, anvil: 0 };
  try {
    for (const entry of readdirSync("/proc")) {
      if (!/^\d+$/.test(entry)) continue;
      let stat: string;
      try {
        stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      } catch {
        continue; // it ended meanwhile
      }
      const comm = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
      const name = (Object.keys(HELPERS) as (keyof typeof HELPERS)[]).find((k) => comm === HELPERS[k]);
      if (!name) continue;
      total[name] += cpuSecondsOf(stat);
    }
    return total;
  } catch {
    return null;
  }
}

/** The machine's CPU time so far, busy and all, from /proc/stat (Linux); null elsewhere. */
function cpuTimes(): { busy: number; all: number } | null {
  try {
    const fields = readFileSync("/proc/stat", "utf8")
      .split("\n")[0]!
      .trim()
      .split(/\s+/)
      .slice(1)
      .map(Number);
    const all = fields.reduce((a, b) => a + b, 0);
    // idle and iowait are the time no work ran.
    return { busy: all - fields[3]! - (fields[4] ?? 0), all };
  } catch {
    return null;
  }
}

/** Below this share of the machine's CPUs busy, over a second, a level may start: the last one's work is done. */
const QUIET_BUSY = 0.15;
const QUIET_MAX_MS = 180_000;
/**
 * Waits until the machine has been quiet for two seconds in a row (or QUIET_MAX_MS), so no level pays for the
 * one before it: a server past its CPU is still storing, grouping and recovering for a while after its last
 * answer. Returns how long it waited.
 */
async function untilQuiet(): Promise<number> {
  const t0 = now();
  let quietSeconds = 0;
  while (quietSeconds < 2 && now() - t0 < QUIET_MAX_MS) {
    const before = cpuTimes();
    await sleep(1000);
    const after = cpuTimes();
    if (!before || !after || after.all <= before.all) return Math.round(now() - t0);
    quietSeconds = (after.busy - before.busy) / (after.all - before.all) < QUIET_BUSY ? quietSeconds + 1 : 0;
  }
  return Math.round(now() - t0);
}

/** The waits the active statements were sampled in, most first. */
const topWaits = (waits: Record<string, number>) =>
  Object.entries(waits)
    .sort((x, y) => y[1] - x[1])
    .slice(0, 5)
    .map(([wait, n]) => `${wait} ${n}`)
    .join(", ") || "none";

const percent = (share: number | null | undefined) =>
  share === null || share === undefined ? "–" : `${Math.round(share * 100)}%`;

/** A level whose machine, or server main thread, was this busy had no CPU to spare (targets 1 and 2). */
const CPU_SATURATED = 0.95;
const ratio = (x: number, y: number) => Math.round((x / y) * 100) / 100;

type PoolWindow = { statements: number; waited: number; peakInFlight: number; size: number };

/**
 * Our pools' counters from each instance's /metrics (lib/db/pool-stats.ts), summed (the most in flight: the
 * instances' peaks added, an upper bound); reading them starts the next peak window.
 */
async function scrapePools(origins: string[]): Promise<PoolWindow | null> {
  const each = await Promise.all(origins.map(scrapePool));
  if (each.length === 0 || each.some((p) => p === null)) return null;
  return (each as PoolWindow[]).reduce((sum, p) => ({
    size: sum.size + p.size,
    statements: sum.statements + p.statements,
    waited: sum.waited + p.waited,
    peakInFlight: sum.peakInFlight + p.peakInFlight,
  }));
}

async function scrapePool(origin: string): Promise<PoolWindow | null> {
  const res = await fetch(`${origin}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
  if (!res.ok) return null;
  const text = await res.text();
  const value = (name: string) => {
    const line = text.split("\n").find((l) => l.startsWith(`${name} `));
    return line === undefined ? null : Number(line.slice(name.length + 1));
  };
  const size = value("feedback_db_pool_connections");
  if (size === null) return null;
  return {
    size,
    statements: value("feedback_db_pool_statements_total") ?? 0,
    waited: value("feedback_db_pool_waits_total") ?? 0,
    peakInFlight: value("feedback_db_pool_in_flight_peak") ?? 0,
  };
}

const METRICS_TOKEN = `pace-benchmark-metrics-${process.pid}`;

/** The database's busiest moment during a level, from pg_stat_activity every 200 ms. */
function dbSampler(url: string | undefined) {
  if (!url) return { start: () => {}, stop: async (): Promise<DbPeak | null> => null, end: async () => {} };
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  let timer: NodeJS.Timeout | undefined;
  const empty = (): DbPeak => ({
    open: 0,
    active: 0,
    idleInTransaction: 0,
    samples: 0,
    busiest: {},
    activeBetweenBlocks: null,
    samplesBetweenBlocks: 0,
    oldestTransaction: { ms: 0, what: "" },
    longestStatementMs: 0,
    waits: {},
  });
  let peak = empty();
  // The chain whose blocks the level's payments wait for (EVM levels), its head and when it last moved.
  let chain:
    | { reader: ReturnType<typeof createPublicClient>; head: bigint | null; movedAt: number }
    | undefined;
  const sample = async () => {
    let betweenBlocks = false;
    if (chain) {
      const head = await chain.reader.getBlockNumber({ cacheTime: 0 }).catch(() => null);
      if (head !== null && head !== chain.head) [chain.head, chain.movedAt] = [head, now()];
      betweenBlocks = chain.head !== null && now() - chain.movedAt > BETWEEN_BLOCKS_MS;
    }
    // Ages from the server's own clock, so the sampler's delay cannot add to them.
    const rows = await sql<
      { state: string | null; what: string; wait: string; xact_ms: number | null; query_ms: number | null }[]
    >`
      select state, left(regexp_replace(query, '[[:space:]]+', ' ', 'g'), 60) as what,
        coalesce(wait_event_type || ':' || wait_event, 'on CPU') as wait,
        (extract(epoch from clock_timestamp() - xact_start) * 1000)::float8 as xact_ms,
        case when state = 'active' then (extract(epoch from clock_timestamp() - query_start) * 1000)::float8 end as query_ms
      from pg_stat_activity
      where datname = current_database() and backend_type = 'client backend' and pid <> pg_backend_pid()`;
    const busy = rows.filter((r) => r.state !== "idle");
    const waits = { ...peak.waits };
    for (const r of rows) if (r.state === "active") waits[r.wait] = (waits[r.wait] ?? 0) + 1;
    const oldest = rows.reduce<(typeof rows)[number] | null>(
      (o, r) => (r.xact_ms !== null && r.xact_ms > (o?.xact_ms ?? -1) ? r : o),
      null,
    );
    const longest = Math.max(0, ...rows.map((r) => r.query_ms ?? 0));
    const active = rows.filter((r) => r.state === "active").length;
    const busiest: Record<string, number> = {};
    for (const r of busy) busiest[`${r.state}: ${r.what}`] = (busiest[`${r.state}: ${r.what}`] ?? 0) + 1;
    peak = {
      open: Math.max(peak.open, rows.length),
      active: Math.max(peak.active, active),
      idleInTransaction: Math.max(
        peak.idleInTransaction,
        rows.filter((r) => r.state?.startsWith("idle in transaction")).length,
      ),
      samples: peak.samples + 1,
      busiest: active >= peak.active ? busiest : peak.busiest,
      activeBetweenBlocks: betweenBlocks
        ? Math.max(peak.activeBetweenBlocks ?? 0, active)
        : peak.activeBetweenBlocks,
      samplesBetweenBlocks: peak.samplesBetweenBlocks + (betweenBlocks ? 1 : 0),
      oldestTransaction:
        oldest && oldest.xact_ms! > (peak.oldestTransaction?.ms ?? 0)
          ? { ms: Math.round(oldest.xact_ms!), what: `${oldest.state}: ${oldest.what}` }
          : peak.oldestTransaction,
      longestStatementMs: Math.max(peak.longestStatementMs ?? 0, Math.round(longest)),
      waits,
    };
  };
  return {
    /** Starts sampling; with `blocksOf`, also tells the samples taken while payments wait for its blocks. */
    start: (blocksOf?: string) => {
      peak = empty();
      chain = blocksOf
        ? { reader: createPublicClient({ transport: http(blocksOf) }), head: null, movedAt: now() }
        : undefined;
      timer = setInterval(() => void sample().catch(() => {}), 200);
    },
    stop: async () => {
      clearInterval(timer);
      return peak;
    },
    end: () => sql.end({ timeout: 5 }),
  };
}

/** A failure's kind: its status and problem type (`503 service-busy`), or the client's error as it is. */
function failureKind(failure: string): string {
  const status = /^(\d{3}) /.exec(failure)?.[1];
  if (!status) return failure.slice(0, 60);
  const type = /"type":"([^"]+)"/.exec(failure)?.[1] ?? /service-busy/.exec(failure)?.[0];
  return type ? `${status} ${type.split("/").pop()}` : status;
}

/** A server's refusal of a call while past its CPU: nothing read, nothing charged. */
const isShed = (status: number, text: string) => status === 503 && text.includes("service-busy");

/**
 * One level: `rate` payments a second for `seconds`, each prepared when it is due (x402: signed for the
 * static 402; MPP: its own 402 and credential), timed from the scheduled arrival, begun once the machine is
 * quiet. Its failures are counted by kind, a shed call (503 service-busy, on the paid call or on MPP's 402) apart.
 */
async function level(
  t: Target,
  rate: number,
  prepare: (i: number) => Promise<Record<string, string>>,
  db: ReturnType<typeof dbSampler>,
) {
  const count = Math.max(1, Math.round(rate * seconds));
  const quietWaitMs = await untilQuiet();
  const agent = keepAliveAgent();
  const paidMs: number[] = [];
  let rss = 0;
  const rssTimer = setInterval(() => {
    rss = Math.max(
      rss,
      t.pids.reduce((sum, pid) => sum + (rssKiB(pid) ?? 0), 0),
    );
  }, 1000);
  if (t.ours) db.start(t.blocksOf);
  const poolBefore = t.ours ? await scrapePools(t.origins) : null;
  const t0 = now();
  // The CPU readings cover the level's arrivals (its first `seconds`), not the backlog's drain after them:
  // a server that falls behind is busiest while calls keep coming.
  const cpuBefore = cpuTimes();
  const mainBefore = mainThreadSeconds(t.pids);
  const helpersBefore = helperSeconds();
  let arrivalsEnd:
    | {
        ms: number;
        cpu: ReturnType<typeof cpuTimes>;
        main: number | null;
        helpers: ReturnType<typeof helperSeconds>;
      }
    | undefined;
  const arrivalsTimer = setTimeout(() => {
    arrivalsEnd = {
      ms: now() - t0,
      cpu: cpuTimes(),
      main: mainThreadSeconds(t.pids),
      helpers: helperSeconds(),
    };
  }, seconds * 1000);
  const shedMs: number[] = [];
  const failures: Record<string, number> = {};
  const counted = (failure: string | null) => {
    if (failure !== null) failures[failureKind(failure)] = (failures[failureKind(failure)] ?? 0) + 1;
    return failure;
  };
  const load = await openLoop(count, rate, async (i) => counted(await call(i).catch(message)));
  async function call(i: number): Promise<string | null> {
    const due = now();
    let headers: Record<string, string>;
    try {
      headers = await prepare(i);
    } catch (error) {
      if (!(error instanceof Not402 && isShed(error.status, error.text))) throw error;
      shedMs.push(now() - due);
      return "503 service-busy (the 402 challenge)";
    }
    const sent = now();
    const res = await send(agent, t.url, headers, feedbackBody(i, `pace-${t.protocol}-${rate}`));
    if (isShed(res.status, res.text)) shedMs.push(now() - due);
    else paidMs.push(now() - sent);
    return res.status === 200 || res.status === 201 ? null : `${res.status} ${res.text.slice(0, 300)}`;
  }
  const wallMs = now() - t0;
  clearTimeout(arrivalsTimer);
  arrivalsEnd ??= { ms: wallMs, cpu: cpuTimes(), main: mainThreadSeconds(t.pids), helpers: helperSeconds() };
  const { ms: arrivalsMs, cpu: cpuAfter, main: mainAfter, helpers: helpersAfter } = arrivalsEnd;
  const mainEnd = mainThreadSeconds(t.pids);
  const msPerCall =
    mainBefore !== null && mainEnd !== null && load.ok > 0 ? ((mainEnd - mainBefore) * 1000) / load.ok : null;
  clearInterval(rssTimer);
  const peak = t.ours ? await db.stop() : null;
  const poolAfter = t.ours ? await scrapePools(t.origins) : null;
  const pool =
    poolBefore && poolAfter
      ? {
          size: poolAfter.size,
          statements: poolAfter.statements - poolBefore.statements,
          waited: poolAfter.waited - poolBefore.waited,
          peakInFlight: poolAfter.peakInFlight,
        }
      : null;
  agent.destroy();
  const result: PaceLevel = {
    ...load,
    key: t.key,
    label: t.label,
    protocol: t.protocol,
    instances: t.pids.length,
    rate,
    sent: count,
    okPerSecond: Math.round((load.ok / (wallMs / 1000)) * 10) / 10,
    paid: summarize(paidMs),
    shed: { n: shedMs.length, latency: summarize(shedMs) },
    quietWaitMs,
    failures,
    db: peak,
    pool,
    rssMiB: rss ? Math.round(rss / 102.4) / 10 : null,
    cpuBusy:
      cpuBefore && cpuAfter && cpuAfter.all > cpuBefore.all
        ? Math.round(((cpuAfter.busy - cpuBefore.busy) / (cpuAfter.all - cpuBefore.all)) * 100) / 100
        : null,
    mainThreadBusy:
      mainBefore !== null && mainAfter !== null
        ? Math.round(((mainAfter - mainBefore) / t.pids.length / (arrivalsMs / 1000)) * 100) / 100
        : null,
    mainThreadMsPerCall: msPerCall === null ? null : Math.round(msPerCall * 100) / 100,
    mainThreadDemand:
      msPerCall === null ? null : Math.round(((msPerCall * rate) / t.pids.length / 1000) * 100) / 100,
    helperCores:
      helpersBefore && helpersAfter
        ? {
            postgres:
              Math.round(((helpersAfter.postgres - helpersBefore.postgres) / (arrivalsMs / 1000)) * 100) /
              100,
            anvil: Math.round(((helpersAfter.anvil - helpersBefore.anvil) / (arrivalsMs / 1000)) * 100) / 100,
          }
        : null,
  };
  console.log(
    `  ${t.label.padEnd(16)} ${rate}/s${quietWaitMs > 2500 ? ` (after ${Math.round(quietWaitMs / 1000)} s for the machine to be quiet)` : ""}: ${load.ok}/${count} ok${shedMs.length ? ` (${shedMs.length} shed, p99 ${result.shed!.latency.p99} ms)` : ""}, ${result.okPerSecond}/s, p50 ${load.latency.p50} p95 ${load.latency.p95} p99 ${load.latency.p99} ms, in flight ≤ ${load.maxInFlight}, CPU ${result.cpuBusy === null || result.cpuBusy === undefined ? "–" : `${Math.round(result.cpuBusy * 100)}%`} busy, server's main thread ${result.mainThreadBusy === null || result.mainThreadBusy === undefined ? "–" : `${Math.round(result.mainThreadBusy * 100)}%`} (${result.mainThreadMsPerCall} ms a call: ${result.mainThreadDemand} cores asked)${result.helperCores ? `, PostgreSQL ${result.helperCores.postgres} cores, anvil ${result.helperCores.anvil}` : ""}${peak ? `, db active ≤ ${peak.active} of ${peak.open} open, idle in transaction ≤ ${peak.idleInTransaction}, oldest transaction ${peak.oldestTransaction?.ms} ms, longest statement ${peak.longestStatementMs} ms${peak.activeBetweenBlocks === null ? "" : `, between blocks ≤ ${peak.activeBetweenBlocks} active`}` : ""}${pool ? `, pool: ${pool.waited} of ${pool.statements} waited, ≤ ${pool.peakInFlight} in flight` : ""}${peak?.waits ? `, active statements by wait: ${topWaits(peak.waits)}` : ""}`,
  );
  return result;
}

async function main() {
  console.log(
    `Pace benchmark on ${DATABASE_URL ? "PostgreSQL" : "embedded PGlite"}: rates ${rates}, ${seconds} s each`,
  );
  const tmp = path.join(os.tmpdir(), `feedback-pace-${process.pid}`);
  mkdirSync(tmp, { recursive: true });
  const stops: Array<() => Promise<void>> = [];
  try {
    const port = await freePort();
    const pace = { evmBlockSeconds: EVM_BLOCK_SECONDS, tempoBlockSeconds: TEMPO_BLOCK_SECONDS };
    const devnet = await startDevnet({ appUrl: `http://127.0.0.1:${port}`, pace });
    stops.push(() => devnet.stop());
    const { info } = devnet;
    // The servers shed load as deployed (the devnet raises the limit for test runs), unless the shell sets it.
    const { SHED_LOOP_DELAY_MS: _raised, ...env } = devnetAppEnv(info, {
      databaseUrl: DATABASE_URL,
      pgliteDir: path.join(tmp, "pglite"),
    });
    const keys = env.X402_FACILITATOR_PRIVATE_KEY!.split(",");
    const build = buildApp();
    const app = await startNext(ROOT, port, {
      ...env,
      NEXT_DIST_DIR: DIST_DIR,
      X402_FACILITATOR_PRIVATE_KEY: keys[0]!,
      METRICS_TOKEN,
    });
    stops.push(() => app.stop());
    const x402Base = await x402Baseline(env, keys[1]!, tmp);
    stops.push(x402Base.stop);
    const mppBase = await mppBaseline(env, tmp);
    stops.push(mppBase.stop);
    const url = `${app.url}/api/namespace/feedback`;
    const pid = nextServerPid(app.pid);
    const targets: Target[] = [
      {
        key: "x402",
        label: "x402 (ours)",
        protocol: "x402",
        url,
        pids: [pid],
        origins: [app.url],
        ours: true,
        blocksOf: info.x402.rpcUrl,
      },
      {
        key: "withX402",
        label: "withX402",
        protocol: "x402",
        url: x402Base.target.url,
        pids: [x402Base.target.pid],
        origins: [],
        ours: false,
      },
    ];
    targets.push(
      { key: "mpp", label: "MPP (ours)", protocol: "mpp", url, pids: [pid], origins: [app.url], ours: true },
      {
        key: "mppx",
        label: "mppx handler",
        protocol: "mpp",
        url: mppBase.target.url,
        pids: [mppBase.target.pid],
        origins: [],
        ours: false,
      },
    );
    if (pairRates.length > 0 && (!only || only.includes(PAIR))) {
      // A second instance of the same build, environment and database, with the devnet's fourth key (the
      // dropped send's instance takes the third), and nginx in front of both as deploy/nginx.conf has it. Last
      // at its rate, so what its two instances leave to do after their last answer falls on no other level.
      const second = await startNext(ROOT, await freePort(), {
        ...env,
        NEXT_DIST_DIR: DIST_DIR,
        X402_FACILITATOR_PRIVATE_KEY: keys[3]!,
        METRICS_TOKEN,
      });
      stops.push(() => second.stop());
      const front = await startNginx(await freePort(), { workerConnections: 8192 });
      stops.push(() => front.close());
      await front.setUpstreams([app.url, second.url]);
      targets.push({
        key: PAIR,
        label: "x402, 2 instances (ours)",
        protocol: "x402",
        url: `${front.url}/api/namespace/feedback`,
        pids: [pid, nextServerPid(second.pid)],
        origins: [app.url, second.url],
        ours: true,
        blocksOf: info.x402.rpcUrl,
        rates: pairRates,
      });
    }
    if (only) targets.splice(0, targets.length, ...targets.filter((t) => only.includes(t.key)));
    const payers = x402Payers(info);
    const mppClients = info.accounts.map((a) => createMppFetch(info.tempo, a.privateKey, fetch));
    const db = dbSampler(DATABASE_URL);
    stops.push(db.end);
    const prepareFor = async (t: Target) => {
      if (t.protocol === "x402") {
        const { required } = await x402Challenge(t.url, 0);
        return async (i: number) => ({
          "payment-signature": await payers[i % payers.length]!.sign(required),
        });
      }
      return async (i: number) => {
        const { res } = await ask402(t.url, feedbackBody(i, "pace-mpp"), true);
        return { authorization: await mppClients[i % mppClients.length]!.createCredential(res) };
      };
    };
    // Untimed: each server's first calls compile its code paths.
    for (const t of targets) {
      const prepare = await prepareFor(t);
      await Promise.all(
        Array.from({ length: 8 }, async (_, i) =>
          send(keepAliveAgent(), t.url, await prepare(i), feedbackBody(i, "pace-warm")),
        ),
      );
    }
    const levels: PaceLevel[] = [];
    const allRates = [...new Set([...rates, ...targets.flatMap((t) => t.rates ?? [])])].sort((x, y) => x - y);
    for (const rate of allRates) {
      const due = targets.filter((t) => (t.rates ?? rates).includes(rate));
      if (due.length === 0) continue;
      console.log(`\n▶ ${rate} paid calls a second for ${seconds} s`);
      for (const t of due) levels.push(await level(t, rate, await prepareFor(t), db));
    }
    console.log(`\n▶ ${REWARDS} rewards resolved at once by one owner`);
    const rewards = await rewardsAtOnce(app.url, payers, info.tempo.rpcUrl, DATABASE_URL);
    console.log(
      `  ${rewards.paid}/${REWARDS} on chain ${rewards.allOnChainMs} ms after the resolves were sent${"slowestRewardMs" in rewards ? `; the slowest ${rewards.slowestRewardMs} ms from its resolution stored, stored over ${rewards.storedSpreadMs} ms, in ${rewards.tempoBlocks?.count} Tempo blocks` : ""}`,
    );
    console.log(
      `\n▶ a dropped send: ${DROP_RATE} x402 calls a second for ${DROP_SECONDS} s, one send swallowed`,
    );
    const dropped = await droppedSend(env, keys[2]!, info.x402.rpcUrl, payers);
    console.log(
      `  ${dropped.ok}/${dropped.sent} ok; behind the drop at most ${dropped.behindMaxMs} ms, elsewhere p99 ${dropped.elsewhereP99Ms} ms; ${dropped.noncesUsed} nonces for ${dropped.settled} settlements (${dropped.distinctTransactions} transactions)`,
    );
    const ledger = await ledgerAtEnd(DATABASE_URL);
    if (ledger) console.log(`\n▶ the ledger at the end: ${renderLedger(ledger)}`);
    const results = {
      startedAt: new Date().toISOString(),
      database: DATABASE_URL ? "postgres" : "pglite",
      machine: machineInfo(DATABASE_URL),
      pace: {
        evmBlockSeconds: EVM_BLOCK_SECONDS,
        tempoBlockSeconds: TEMPO_BLOCK_SECONDS,
        seconds,
        rates,
        pairRates: targets.some((t) => t.key === PAIR) ? pairRates : [],
      },
      build,
      levels,
      rewards,
      dropped,
      ledger,
      loadAverageAtEnd: os.loadavg().map((x) => Math.round(x * 100) / 100),
    };
    mkdirSync(path.dirname(OUT), { recursive: true });
    writeFileSync(OUT, `${JSON.stringify(results, null, 2)}\n`);
    const md = OUT.replace(/\.json$/, ".md");
    writeFileSync(md, renderPace(results));
    console.log(`\nResults: ${path.relative(ROOT, OUT)}, report: ${path.relative(ROOT, md)}`);
  } finally {
    for (const stop of stops.reverse()) await stop().catch(() => {});
    rmSync(tmp, { recursive: true, force: true });
  }
}

const REWARDS = QUICK ? 10 : 100;
const DROP_RATE = QUICK ? 5 : 25;
const DROP_SECONDS = QUICK ? 12 : 30;
/** When the send is swallowed: once the level runs steadily. */
const DROP_AT_MS = 5_000;
/** The calls judged "behind the drop": those in flight when it was swallowed, and those after it. */
const BEHIND_BEFORE_MS = 3_000;
const BEHIND_AFTER_MS = 6_000;

/**
 * Target 5: an instance of our build whose x402 chain is reached through the RPC fault proxy, which
 * swallows one send DROP_AT_MS into a level (never forwarded, never answered: a node that lost it). The
 * calls in flight then and arriving after it wait for its nonce. Measured: every call's latency from its
 * arrival, those behind the drop against the rest, and the facilitator key's nonces used against the
 * settlements stored, which are equal when the swallowed transaction itself was sent again and nothing
 * was sent twice.
 */
async function droppedSend(
  env: Record<string, string>,
  key: string,
  rpcUrl: string,
  payers: ReturnType<typeof x402Payers>,
) {
  const proxy = await startRpcProxy(rpcUrl);
  const port = await freePort();
  const app = await startNext(ROOT, port, {
    ...env,
    NEXT_DIST_DIR: DIST_DIR,
    X402_RPC_URL: proxy.url,
    X402_FACILITATOR_PRIVATE_KEY: key,
  });
  const reader = createPublicClient({ transport: http(rpcUrl) });
  const facilitator = privateKeyToAccount(key as `0x${string}`).address;
  try {
    const url = `${app.url}/api/namespace/feedback`;
    const { required } = await x402Challenge(url, 0);
    const agent = keepAliveAgent();
    const pay = async (i: number, tag: string) =>
      send(
        agent,
        url,
        { "payment-signature": await payers[i % payers.length]!.sign(required) },
        feedbackBody(i, tag),
      );
    await Promise.all(Array.from({ length: 8 }, (_, i) => pay(i, "pace-drop-warm")));
    const noncesBefore = await reader.getTransactionCount({ address: facilitator });
    const startedAt = new Date();
    let droppedAtMs: number | null = null;
    // Every call the instance made to its chain before the drop, by method (none is batched), and the
    // paid calls answered ok by then: what a settlement asks of the chain when nothing goes wrong.
    const rpcCalls: Record<string, number> = {};
    let okBeforeDrop = 0;
    const t0 = now();
    proxy.setPolicy(({ method }) => {
      if (droppedAtMs === null) rpcCalls[method] = (rpcCalls[method] ?? 0) + 1;
      if (droppedAtMs !== null || !method.startsWith("eth_sendRawTransaction") || now() - t0 < DROP_AT_MS)
        return { kind: "pass" };
      droppedAtMs = now() - t0;
      return { kind: "drop" };
    });
    const count = DROP_RATE * DROP_SECONDS;
    const calls: Array<{ dueMs: number; ms: number; ok: boolean }> = [];
    const load = await openLoop(count, DROP_RATE, async (i) => {
      const dueMs = (i * 1000) / DROP_RATE;
      const res = await pay(i, "pace-drop");
      const ok = res.status === 200 || res.status === 201;
      if (ok && droppedAtMs === null) okBeforeDrop++;
      calls.push({ dueMs, ms: now() - t0 - dueMs, ok });
      return ok ? null : `${res.status} ${res.text.slice(0, 300)}`;
    });
    agent.destroy();
    const at = droppedAtMs ?? Number.NaN;
    const behind = calls.filter((c) => c.dueMs >= at - BEHIND_BEFORE_MS && c.dueMs <= at + BEHIND_AFTER_MS);
    const elsewhere = calls.filter((c) => !behind.includes(c));
    // Settlements stored for this level, and the transactions they name (the facilitator's last sends
    // may still be waited for: a block's time).
    await sleep(2 * EVM_BLOCK_SECONDS * 1000);
    let rows: { settled: number; distinct: number } | undefined;
    if (DATABASE_URL) {
      const sql = postgres(DATABASE_URL, { max: 1, onnotice: () => {} });
      [rows] = await sql<{ settled: number; distinct: number }[]>`
        select count(*)::int as settled, count(distinct tx_ref)::int as "distinct" from payments
        where protocol = 'x402' and status = 'fulfilled' and created_at >= ${startedAt}`;
      await sql.end({ timeout: 5 });
    }
    return {
      rate: DROP_RATE,
      seconds: DROP_SECONDS,
      sent: count,
      ok: load.ok,
      errors: load.errors,
      droppedAtMs: droppedAtMs === null ? null : Math.round(droppedAtMs),
      drops: proxy.stats().faults.drop ?? 0,
      behind: behind.length,
      behindMaxMs: Math.round(Math.max(0, ...behind.map((c) => c.ms))),
      elsewhereP99Ms: summarize(elsewhere.map((c) => c.ms)).p99,
      latency: load.latency,
      noncesUsed: (await reader.getTransactionCount({ address: facilitator })) - noncesBefore,
      settled: rows?.settled ?? null,
      distinctTransactions: rows?.distinct ?? null,
      rpcCalls,
      okBeforeDrop,
    };
  } finally {
    await app.stop();
    await proxy.close();
  }
}

/**
 * One owner resolves REWARDS items at once, each with a 0.01 USD reward paid with x402: the time from
 * sending the resolves until every reward's Tempo transfer is on chain (its payout row paid, which the
 * service records only from the transfer's receipt), and whether each was paid once.
 */
async function rewardsAtOnce(
  origin: string,
  payers: ReturnType<typeof x402Payers>,
  tempoRpc: string,
  databaseUrl?: string,
) {
  if (!databaseUrl)
    return { skipped: "needs DATABASE_URL (the payouts are read from it)", paid: 0, allOnChainMs: null };
  const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} });
  try {
    const [owner, ...agents] = payers;
    const namespace = `pace-rewards-${Date.now().toString(36)}`;
    const pay = async (payer: (typeof payers)[number], path: string, body: unknown) => {
      const url = `${origin}/api/namespace/${path}`;
      const asked = await fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      const signature = await payer!.sign(asked.headers.get("payment-required")!);
      const res = await fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json", "payment-signature": signature },
        body: JSON.stringify(body),
      });
      if (res.status !== 200) throw new Error(`${path}: ${res.status} ${(await res.text()).slice(0, 200)}`);
      return res.json() as Promise<{ id: string }>;
    };
    await pay(owner!, "register", { namespace });
    const ids = await Promise.all(
      Array.from({ length: REWARDS }, async (_, i) => {
        const item = {
          namespace,
          type: "bug",
          title: `Rewarded report ${i}`,
          description: "Filed to be resolved with a reward at once.",
        };
        return (await pay(agents[i % agents.length]!, "feedback", item)).id;
      }),
    );
    const t0 = now();
    const answers = await Promise.allSettled(
      ids.map((feedbackId) =>
        pay(owner!, "resolve", { feedbackId, message: "Fixed, thank you", rewardAmount: "0.01" }),
      ),
    );
    const paidRows = async () =>
      (
        await sql<{ n: number; once: number; span: number | null }[]>`
        select (count(*) filter (where status = 'paid'))::int as n, count(distinct feedback_id)::int as once,
               (extract(epoch from max(updated_at) - min(created_at)) * 1000)::int as span
        from payouts where feedback_id in ${sql(ids)}`
      )[0]!;
    let rows = await paidRows();
    while (rows.n < REWARDS && now() - t0 < 120_000) {
      await new Promise((r) => setTimeout(r, 100));
      rows = await paidRows();
    }
    // Each reward's own wait, from its resolution stored (its payout row is made in the same transaction) to
    // its transfer seen on chain (the row marked paid once its receipt is read, so an upper bound); and the
    // Tempo blocks the transfers landed in, from their receipts.
    const [each] = await sql<{ slowest: number | null; spread: number | null }[]>`
      select (max(extract(epoch from updated_at - created_at)) * 1000)::int as slowest,
             (extract(epoch from max(created_at) - min(created_at)) * 1000)::int as spread
      from payouts where feedback_id in ${sql(ids)} and status = 'paid'`;
    const hashes = await sql<{ tx_hash: string }[]>`
      select tx_hash from payouts where feedback_id in ${sql(ids)} and status = 'paid' and tx_hash is not null`;
    const tempo = createPublicClient({ transport: http(tempoRpc) });
    const blocks = new Set<bigint>();
    for (const { tx_hash } of hashes)
      blocks.add((await tempo.getTransactionReceipt({ hash: tx_hash as `0x${string}` })).blockNumber);
    const numbers = [...blocks].sort((a, b) => (a < b ? -1 : 1));
    return {
      paid: rows.n,
      payoutRows: rows.once,
      resolvesOk: answers.filter((a) => a.status === "fulfilled").length,
      allOnChainMs: rows.n === REWARDS ? Math.round(now() - t0) : null,
      /** From the first resolution stored to the last paid. */
      storedToOnChainMs: rows.n === REWARDS ? rows.span : null,
      /** The longest any one reward waited, from its resolution stored to its transfer seen on chain. */
      slowestRewardMs: rows.n === REWARDS ? each?.slowest : null,
      /** How far apart the resolutions were stored (their x402 payments land in the EVM chain's blocks). */
      storedSpreadMs: each?.spread ?? null,
      /** The Tempo blocks the transfers landed in: how many, and from the first to the last. */
      tempoBlocks: numbers.length
        ? { count: numbers.length, first: Number(numbers[0]), last: Number(numbers.at(-1)) }
        : null,
    };
  } finally {
    await sql.end({ timeout: 5 });
  }
}

/** The pool each instance opens (lib/db/client.ts): the statements' 10 and the bookkeeping's 3. */
const POOL_SIZE = 13;

/** The anchor each protocol's levels are compared with. */
const ANCHOR = { x402: "withX402", mpp: "mppx" } as const;

type PaceResults = {
  startedAt: string;
  database: string;
  machine: ReturnType<typeof machineInfo>;
  pace: {
    evmBlockSeconds: number;
    tempoBlockSeconds: number;
    seconds: number;
    rates: number[];
    /** The rates x402 was also measured at on two instances (absent in runs before it). */
    pairRates?: number[];
  };
  levels: PaceLevel[];
  rewards: Awaited<ReturnType<typeof rewardsAtOnce>>;
  dropped?: Awaited<ReturnType<typeof droppedSend>>;
  /** Every payment and payout the run left, by status (absent in runs before it was read, and on PGlite). */
  ledger?: Ledger | null;
  loadAverageAtEnd: number[];
};

type Ledger = { payments: Record<string, Record<string, number>>; payouts: Record<string, number> };

/**
 * The payments and payouts every level, the rewards and the dropped send left, by status, once their last
 * answer came: all fulfilled and paid when no payment was left half done however far past its CPU a server
 * was (a claim with nothing sent, a settlement not stored, a refusal after a charge).
 */
async function ledgerAtEnd(url: string | undefined): Promise<Ledger | null> {
  if (!url) return null;
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    const payments: Ledger["payments"] = {};
    const rows = await sql<{ protocol: string; status: string; n: number }[]>`
      select protocol, status, count(*)::int as n from payments group by 1, 2`;
    for (const r of rows) payments[r.protocol] = { ...payments[r.protocol], [r.status]: r.n };
    const payouts: Ledger["payouts"] = {};
    const paid = await sql<
      { status: string; n: number }[]
    >`select status, count(*)::int as n from payouts group by 1`;
    for (const r of paid) payouts[r.status] = r.n;
    return { payments, payouts };
  } finally {
    await sql.end({ timeout: 5 });
  }
}

const counts = (by: Record<string, number>, times = "") =>
  Object.entries(by)
    .sort((x, y) => y[1] - x[1])
    .map(([what, n]) => `${n.toLocaleString("en")} ${times}${what}`)
    .join(", ");

function renderLedger(l: Ledger): string {
  const payments = Object.entries(l.payments)
    .map(([protocol, by]) => `${protocol === "mpp" ? "MPP" : protocol}: ${counts(by)}`)
    .join("; ");
  return `payments ${payments}; payouts: ${counts(l.payouts) || "none"}`;
}

/** What a settlement asked of its chain before the drop, by method, per transaction sent (runs since it was read). */
function renderRpcCalls(d: NonNullable<PaceResults["dropped"]>): string {
  if (!("rpcCalls" in d) || !d.rpcCalls) return "";
  const sends = (d.rpcCalls.eth_sendRawTransactionSync ?? 0) + (d.rpcCalls.eth_sendRawTransaction ?? 0);
  if (!sends) return "";
  const per = (n: number) => Math.round((n / sends) * 100) / 100;
  const all = Object.values(d.rpcCalls).reduce((a, b) => a + b, 0);
  const methods = Object.entries(d.rpcCalls)
    .sort((a, b) => b[1] - a[1])
    .map(([method, n]) => `${method} ${per(n)}`)
    .join(", ");
  return ` Before the drop, the instance asked its chain ${per(all)} times per settlement sent (${sends} sent, ${d.okBeforeDrop} answered by then): ${methods}.`;
}

/** Target 5's paragraph: the calls behind a swallowed send, and the nonces against the settlements. */
function renderDropped(r: PaceResults): string {
  const d = r.dropped;
  if (!d) return "Target 5 (a dropped transaction) was not measured in this run.";
  const interval = r.pace.evmBlockSeconds * 1000;
  const delay = Math.round(d.behindMaxMs - d.elsewhereP99Ms);
  const once =
    d.settled !== null &&
    d.settled === d.ok &&
    d.distinctTransactions === d.settled &&
    d.noncesUsed === d.settled;
  const met = d.drops === 1 && d.ok === d.sent && once && delay <= 3 * interval;
  return `A dropped transaction: ${d.rate} x402 calls a second for ${d.seconds} s to an instance whose chain is reached through the RPC fault proxy, which swallowed ${d.drops} send ${d.droppedAtMs ?? "–"} ms in (never forwarded, never answered). ${d.ok} / ${d.sent} ok; the ${d.behind} calls in flight then or arriving in the ${BEHIND_AFTER_MS / 1000} s after took at most ${d.behindMaxMs} ms from arrival, the others p99 ${d.elsewhereP99Ms} ms: ${delay} ms more, ${(delay / interval).toFixed(1)} block intervals. The facilitator key used ${d.noncesUsed} nonces for ${d.settled ?? "–"} settlements stored, naming ${d.distinctTransactions ?? "–"} distinct transactions. Target 5, the calls behind it delayed by at most a few (three) block intervals and each settled once: ${met ? "**met**" : "**not met**"}.${renderRpcCalls(d)}`;
}

/** What a second instance bought: x402 on two instances against one, at each rate both were measured at. */
function renderPair(r: PaceResults): string {
  const pairs = r.levels.filter((l) => l.key === PAIR);
  if (pairs.length === 0) return "";
  const line = (l: PaceLevel) =>
    `${l.ok} / ${l.sent} ok, ${l.okPerSecond}/s, p99 ${l.latency.p99} ms from arrival; the machine ${percent(l.cpuBusy)} busy, each instance's main thread ${percent(l.mainThreadBusy)} (${l.mainThreadMsPerCall} ms a call, ${l.mainThreadDemand} cores a process)${l.helperCores ? `, PostgreSQL ${l.helperCores.postgres} cores, anvil ${l.helperCores.anvil}` : ""}`;
  const each = pairs.map((l) => {
    const one = r.levels.find((o) => o.key === "x402" && o.rate === l.rate);
    return `- ${l.rate}/s on two instances behind nginx (deploy/nginx.conf), each with its own facilitator key, one database: ${line(l)}.${one ? ` On one instance: ${line(one)}.` : ""}`;
  });
  return `\nx402 with one process's limit lifted:\n\n${each.join("\n")}\n`;
}

/** pace.md: each level's figures, then each target judged level by level. */
function renderPace(r: PaceResults): string {
  const block = (p: "x402" | "mpp") =>
    (p === "x402" ? r.pace.evmBlockSeconds : r.pace.tempoBlockSeconds) * 1000;
  const yes = (met: boolean) => (met ? "**met**" : "**not met**");
  const stored = "storedToOnChainMs" in r.rewards ? r.rewards.storedToOnChainMs : null;
  const fiveBlocks = 5 * r.pace.tempoBlockSeconds * 1000;
  // Judged per reward (its resolution stored to its transfer on chain) where the run measured it; runs before
  // it measured from the first resolution stored, which adds the spread of the resolutions' own payments.
  const slowest = "slowestRewardMs" in r.rewards ? (r.rewards.slowestRewardMs ?? null) : null;
  const spread = "storedSpreadMs" in r.rewards ? r.rewards.storedSpreadMs : null;
  const blocks = "tempoBlocks" in r.rewards ? r.rewards.tempoBlocks : null;
  const waited = slowest ?? stored;
  const rewardsMet =
    waited !== null &&
    waited !== undefined &&
    waited <= fiveBlocks &&
    r.rewards.paid === REWARDS &&
    "payoutRows" in r.rewards &&
    r.rewards.payoutRows === REWARDS;
  const rows = r.levels.map(
    (l) =>
      `| ${l.rate}/s | ${l.label} | ${l.ok} / ${l.sent}${l.shed?.n ? ` (${l.shed.n} shed in ≤ ${l.shed.latency.max} ms)` : ""} | ${l.okPerSecond} | ${l.latency.p50} / ${l.latency.p95} / ${l.latency.p99} | ${l.paid.p50} / ${l.paid.p99} | ${l.maxInFlight} | ${l.db ? `${l.db.active} of ${l.db.open} (${l.db.idleInTransaction})${l.db.oldestTransaction ? `; ${l.db.oldestTransaction.ms} / ${l.db.longestStatementMs}` : ""}` : "–"} | ${l.pool ? `${l.pool.waited} of ${l.pool.statements} (≤ ${l.pool.peakInFlight})` : "–"} | ${l.rssMiB ?? "–"} | ${percent(l.cpuBusy)} / ${percent(l.mainThreadBusy)}${l.mainThreadMsPerCall ? ` (${l.mainThreadMsPerCall} ms a call)` : ""}${l.helperCores ? ` / ${l.helperCores.postgres} / ${l.helperCores.anvil}` : ""} |`,
  );
  const verdicts = r.levels
    .filter((l) => l.key === "x402" || l.key === PAIR || l.key === "mpp")
    .map((l) => {
      const anchor = r.levels.find((a) => a.rate === l.rate && a.key === ANCHOR[l.protocol]);
      const pool = POOL_SIZE * (l.instances ?? 1);
      // x402's client signs in a millisecond: judged from the scheduled arrival. An MPP client fetches a 402
      // and builds a transaction per call on this same machine: judged on the paid call alone.
      const p99 = l.protocol === "x402" ? l.latency.p99 : l.paid.p99;
      const bound = 2 * block(l.protocol) + 500;
      const t1 = l.ok === l.sent && p99 <= bound;
      const t2 = l.okPerSecond >= 0.9 * l.rate;
      const behind = anchor && anchor.okPerSecond < 0.9 * anchor.rate;
      const t2b = behind ? l.okPerSecond >= 2 * anchor.okPerSecond : undefined;
      // Ours kept up with the arrivals, and an anchor at more than half the rate leaves no 2× to reach: reported
      // as met at the arrival rate, with the ratio and the most the rate allows.
      const capped = behind && !t2b && t2 && 2 * anchor.okPerSecond > l.rate;
      // Held while payments wait for a block: a transaction open as long as a block interval (what a
      // connection kept across the chain's wait would show, however few are in use), or, on the EVM chain,
      // more than half the pool in use at the samples taken between blocks. Tempo's 0.6 s blocks leave no
      // such time: every sample falls in some block's landing, so its connections in use are reported, and
      // judged by the transactions' age alone. What a block's landing brings at once (its payments' stores)
      // is reported beside it: the pool's waits.
      const between = l.db?.activeBetweenBlocks ?? null;
      const oldest = l.db?.oldestTransaction;
      const heldAcross = oldest ? oldest.ms >= block(l.protocol) : (l.db?.idleInTransaction ?? 0) > 0;
      const inUse = between ?? (oldest ? 0 : (l.db?.active ?? 0));
      const t3 = l.db ? !heldAcross && inUse <= pool / 2 : undefined;
      const age = oldest
        ? `, oldest transaction ${oldest.ms} ms (block ${block(l.protocol)} ms)${oldest.ms >= block(l.protocol) ? `: ${oldest.what}` : ""}`
        : "";
      // A level that kept the machine's CPUs busy, or the server's JavaScript threads (one per instance), had no
      // CPU to spare: where it fell short of targets 1 and 2, that is the limit of this machine or of its
      // processes (another instance takes another core), not a wait that serialises. Its figures are shown
      // either way.
      const processes = (l.instances ?? 1) === 1 ? "one server process" : `${l.instances} server processes`;
      // A server that shed calls said so itself: its event loop lagged past the limit for a second, which only
      // more work than its thread does brings (lib/http/load-shed.ts), as each block's settlements land at once.
      const shed = l.shed?.n ?? 0;
      const limit =
        (l.cpuBusy ?? 0) >= CPU_SATURATED
          ? `**beyond this machine's CPU** (${percent(l.cpuBusy)} busy)`
          : (l.mainThreadBusy ?? 0) >= CPU_SATURATED || (l.mainThreadDemand ?? 0) >= CPU_SATURATED || shed > 0
            ? `**beyond ${processes}** (${l.mainThreadMsPerCall} ms of main thread a call, ${l.mainThreadDemand} cores a process at ${l.rate}/s; ${percent(l.mainThreadBusy)} busy, the machine ${percent(l.cpuBusy)}${shed ? `; it shed ${shed} calls, its event loop late past its limit` : ""})`
            : null;
      // The limit's figures once, in target 1's cell; the other cells name it.
      const named = limit?.slice(0, limit.indexOf("** (") + 2) ?? null;
      const judge = (met: boolean, first = false) => (!met && limit ? (first ? limit : named) : yes(met));
      // A transaction open across a block is held, whatever the CPU. Connections in use between blocks are
      // not, where the process is past its CPU: its backlog of stores is still running then, and its
      // statements wait on the busy thread to read their results (Client:ClientRead), not on a block.
      const judge3 = (met: boolean) => (!met && !heldAcross && limit ? named : yes(met));
      return `| ${l.rate}/s | ${l.label} | ${judge(t1, true)} (${l.ok} of ${l.sent} ok${l.errors ? `, failed: ${l.failures ? counts(l.failures, "× ") : [...new Set(l.errorSamples.map((e) => e.slice(0, 40)))].join("; ")}` : ""}; p99 ${p99} ms, bound ${bound}) | ${judge(t2)}${t2b === undefined ? "" : `; ${capped ? `**met at the arrival rate** vs ${anchor!.label} (${anchor!.okPerSecond}/s: ours ${ratio(l.okPerSecond, anchor!.okPerSecond)}×, where ${l.rate} arrivals a second allow at most ${ratio(l.rate, anchor!.okPerSecond)}×)` : `${judge(t2b)} vs ${anchor!.label} (${anchor!.okPerSecond}/s)`}`} | ${t3 === undefined ? "–" : `${judge3(t3)} (${between === null ? `${l.db!.active} active at most` : `${between} active at most between blocks (${l.db!.samplesBetweenBlocks} samples), ${l.db!.active} as a block lands`} of ${(l.instances ?? 1) === 1 ? `a pool of ${pool}` : `${l.instances} pools of ${POOL_SIZE}`}, ${l.db!.idleInTransaction} idle in transaction${age}; ${l.pool ? `${l.pool.waited} of ${l.pool.statements} statements waited for a connection` : "pool waits not read"})`} |`;
    });
  const waits = r.levels.flatMap((l) => (l.quietWaitMs === undefined ? [] : [l.quietWaitMs]));
  const quiet = waits.length
    ? `, each begun once the machine's CPUs were under ${QUIET_BUSY * 100}% busy for 2 s (the wait for the level before's leftover work: at most ${Math.round(Math.max(...waits) / 1000)} s)`
    : "";
  return `# At a real chain's pace

Run ${r.startedAt} on ${r.database === "postgres" ? "PostgreSQL" : "embedded PGlite"}, ${r.machine.cores} cores; load average at the end ${r.loadAverageAtEnd.join(" / ")}.
EVM blocks every ${r.pace.evmBlockSeconds} s with no instant mining, Tempo blocks every ${r.pace.tempoBlockSeconds} s (\`DEVNET_BLOCK_TIME\`); each level ${r.pace.seconds} s of open-loop arrivals${quiet}. Rendered by \`scripts/bench/pace.ts\` from \`${path.basename(OUT)}\`.

| rate | target | ok / sent | ok/s | latency p50 / p95 / p99 (ms, from arrival) | paid call p50 / p99 (ms) | most in flight | db active of open (idle in tx); oldest transaction / longest statement (ms) | pool waits of statements (most in flight) | RSS MiB | CPU: machine busy / server's main thread busy / PostgreSQL, anvil cores |
|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|
${rows.join("\n")}

Rewards: ${r.rewards.paid} of ${REWARDS} resolved at once were on chain ${r.rewards.allOnChainMs ?? "–"} ms after the resolves were sent (each resolve first waits for its own x402 payment's 2 s block), and ${stored ?? "–"} ms after the first resolution was stored${slowest === null ? "" : ` (the resolutions were stored over ${spread} ms, as their payments' EVM blocks landed; the slowest reward took ${slowest} ms from its own resolution stored to its transfer seen on chain${blocks ? `, and the ${r.rewards.paid} transfers landed in ${blocks.count} Tempo blocks, ${blocks.first} to ${blocks.last}` : ""})`}; ${"payoutRows" in r.rewards ? r.rewards.payoutRows : "–"} payout rows for ${REWARDS} items. Target 4, each on chain within five Tempo blocks (${fiveBlocks} ms) of being resolved, and paid once: ${rewardsMet ? "**met**" : "**not met**"}.

The database at each level's busiest moment (ours), by what the connections were running:

${r.levels
  .filter((l) => l.db)
  .map(
    (l) =>
      `- ${l.rate}/s ${l.label}: ${Object.entries(l.db!.busiest)
        .map(([what, count]) => `${count} × \`${what.replace(/\s+/g, " ").trim()}…\``)
        .join(", ")}`,
  )
  .join("\n")}

| rate | ours | 1. every call ok, p99 ≤ two blocks + 0.5 s | 2. ≥ 0.9× the arrival rate (and ≥ 2× an anchor that falls behind) | 3. no connection or transaction held while payments wait for a block (in use ≤ half the pool) |
|---|---|---|---|---|
${verdicts.join("\n")}
${renderPair(r)}
${renderDropped(r)}
${r.ledger ? `\nThe ledger once the last call was answered (every level, the rewards and the dropped send): ${renderLedger(r.ledger)}.\n` : ""}`;
}

// `--render`: pace.md again from pace.json, without running anything.
if (process.argv.includes("--render")) {
  writeFileSync(OUT.replace(/\.json$/, ".md"), renderPace(JSON.parse(readFileSync(OUT, "utf8"))));
} else {
  await main();
}
process.exit(0);
