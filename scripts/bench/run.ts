/**
 * `npm run bench`: the service's performance, measured end to end on this machine and written to
 * scripts/bench/results/latest.json and BENCHMARKS.md. See BENCHMARKS.md for the method and every knob; in short:
 *
 *   devnet (anvil + USDC, Tempo + USDC.e) → `next build` → seed the inbox at scale (in-process SQL)
 *   → `next start` → paid submissions (x402, MPP) at concurrency 1/8/32 → inbox pages over HTTP
 *   → soak at concurrency 32 with RSS samples → server-side x402 phases in-process
 *   → the `withX402` baseline on the same chain and facilitator key (one after the other, never at once)
 *   → with DATABASE_URL: 1, 2, 4 instances behind a balancer, the ledger reconciled, DB cost per paid call.
 *
 * Knobs (environment):
 *   DATABASE_URL             PostgreSQL to run on (otherwise embedded PGlite in a temp dir)
 *   BENCH_QUICK=1            smoke sizes: 10k/50k inbox rows, 2 rounds, 15 s soak, fewer samples
 *   BENCH_CONCURRENCY        levels, default 1,8,32
 *   BENCH_ROUNDS             requests per level = max(40, concurrency × rounds); default 12 (quick: max(20, c × 2))
 *   BENCH_WARMUP             untimed paid calls per server (at concurrency 8) before its first level; default 200
 *   BENCH_REPEATS            x402 levels (and MPP's highest) alternate ours/anchor this many times, pooled; default 3 (quick: 1)
 *   BENCH_INBOX_NS_ROWS      items in the measured namespace (default 100000)
 *   BENCH_INBOX_TOTAL_ROWS   rows in the feedback table (default 1000000)
 *   BENCH_DEEP_FRACTION      how deep the "deep page" is, as a fraction of the namespace (default 0.9)
 *   BENCH_LIST_SAMPLES       samples per inbox page kind (default 30)
 *   BENCH_SIWX_PROOFS        sign-in proofs verified (default 300)
 *   BENCH_SOAK_SECONDS       soak length at concurrency 32 (default 600)
 *   BENCH_IDLE_SECONDS       how long our warmed server is left with no traffic, its CPU read (default 30; quick 10)
 *   BENCH_PHASES_REQUESTS / BENCH_PHASES_CONCURRENCY   in-process x402 phases (default 40 at 1,8)
 *   BENCH_SECTIONS           subset of x402,mpp,inbox,siwx,soak,phases,baseline,instances
 *   BENCH_INSTANCES          instance counts of the "instances" section (default 1,2,4; at most 4, one
 *                            facilitator key each); it needs DATABASE_URL and makes a database of its own there
 *   BENCH_INSTANCES_CONCURRENCY / BENCH_INSTANCES_REQUESTS   its load (default 32 / 384; quick 32 / 64)
 *   BENCH_COST_CALLS         sequential calls per kind for the database cost per paid call (default 10; quick 4)
 *   BENCH_SKIP_BUILD=1       reuse an existing build in BENCH_DIST_DIR (default .next-bench)
 *   BENCH_OUT                results JSON (default scripts/bench/results/latest.json); BENCHMARKS.md is always rewritten
 *   BENCH_CPU_PROF=<dir>     every `next start` writes a V8 CPU profile (.cpuprofile) into <dir> when it stops
 */
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { Agent, request as httpRequest } from "node:http";
import os from "node:os";
import path from "node:path";
import { Mppx, tempo } from "mppx/client";
import { privateKeyToAccount } from "viem/accounts";
import { parseServerTiming } from "../../lib/http/server-timing";
import { X402_MAX_TIMEOUT_SECONDS } from "../../lib/payment/x402-credential";
import { signInHeader } from "../../testing/sign-in";
import { createX402Fetch } from "../clients/x402-payer";
import { devnetAppEnv } from "../devnet/app-env";
import { type DevnetInfo, startDevnet } from "../devnet/start-devnet";
import { tempoClient } from "../devnet/tempo";
import { startBaselineApp } from "./baseline-app";
import {
  type ChainPoint,
  type CpuShares,
  chainPoint,
  closedLoop,
  cpuShares,
  envNumber,
  freePort,
  getText,
  keepAliveAgent,
  type LoadResult,
  machineBusyMs,
  machineInfo,
  NEXT_BIN,
  type NextApp,
  nextServerPid,
  now,
  openLoop,
  postJson,
  processCpuMs,
  processesCpu,
  QUICK,
  ROOT,
  rssKiB,
  runInProcessChild,
  type Summary,
  sleep,
  startNext,
  summarize,
} from "./common";
import { benchInstances } from "./instances";
import { writeReport } from "./report";

const INBOX_NAMESPACE = "bench-inbox";
const DATABASE_URL = process.env.DATABASE_URL || undefined;
const CONCURRENCY = (process.env.BENCH_CONCURRENCY ?? "1,8,32").split(",").map(Number);
const ROUNDS = envNumber("BENCH_ROUNDS", QUICK ? 2 : 12);
const SOAK_SECONDS = envNumber("BENCH_SOAK_SECONDS", QUICK ? 15 : 600);
const SOAK_HEAP_MIB = envNumber("BENCH_SOAK_HEAP_MIB", 256);
const DIST_DIR = process.env.BENCH_DIST_DIR ?? ".next-bench";
const OUT = path.resolve(ROOT, process.env.BENCH_OUT ?? "scripts/bench/results/latest.json");
const ALL_SECTIONS = [
  "alike",
  "x402",
  "ceiling",
  "open",
  "mpp",
  "inbox",
  "siwx",
  "soak",
  "phases",
  "baseline",
  "instances",
];
const SECTIONS = new Set((process.env.BENCH_SECTIONS ?? ALL_SECTIONS.join(",")).split(","));
if (QUICK) {
  process.env.BENCH_INBOX_NS_ROWS ??= "10000";
  process.env.BENCH_INBOX_TOTAL_ROWS ??= "50000";
  process.env.BENCH_LIST_SAMPLES ??= "10";
  process.env.BENCH_SIWX_PROOFS ??= "50";
  process.env.BENCH_PHASES_REQUESTS ??= "10";
}
const requestsFor = (c: number) => Math.max(QUICK ? 20 : 40, c * ROUNDS);
// JIT, route modules, the database pool and the facilitator's clients warm up on the first calls; each
// server gets the same untimed warm-up before its first measured level, so neither pays for it.
// 32 calls were not enough: a profile showed V8's compiler and collector threads still busy through the
// next 100 or so, which read as a fixed background cost charged to whichever level ran first.
const WARMUP = envNumber("BENCH_WARMUP", QUICK ? 8 : 200);
// Ours and the baseline alternate this many times per x402 level (machine noise is ±10% run to run).
const REPEATS = Math.max(1, envNumber("BENCH_REPEATS", QUICK ? 1 : 3));

const results: Record<string, unknown> = {};
const stopList: Array<() => Promise<void>> = [];
const tmp = path.join(os.tmpdir(), `feedback-bench-${process.pid}`);
mkdirSync(tmp, { recursive: true });

function section(title: string) {
  console.log(`\n▶ ${title}`);
}

async function cleanup() {
  for (const stop of stopList.reverse()) await stop().catch(() => {});
  stopList.length = 0;
}
process.on("SIGINT", () => void cleanup().then(() => process.exit(130)));

/** A feedback body unique per request (the service stores each). */
function feedbackBody(i: number, protocol: string) {
  return JSON.stringify({
    namespace: "bench-paid",
    type: "bug",
    title: `Benchmark ${protocol} submission ${i}`,
    description: "A paid submission sent by npm run bench to measure end-to-end latency.",
    severity: "low",
  });
}

// ─── Build ──────────────────────────────────────────────────────────────────────────────────────────

/**
 * `next build` into BENCH_DIST_DIR. Next adds `<distDir>/types/**` to tsconfig.json's include list for a
 * new dist dir; the bench puts tsconfig.json back as it found it so the project's typecheck is untouched.
 */
function buildApp() {
  if (process.env.BENCH_SKIP_BUILD === "1" && existsSync(path.join(ROOT, DIST_DIR, "BUILD_ID"))) {
    console.log(`  reusing the existing build in ${DIST_DIR} (BENCH_SKIP_BUILD=1)`);
    return { reused: true, ms: 0 };
  }
  const tsconfigPath = path.join(ROOT, "tsconfig.json");
  const before = readFileSync(tsconfigPath, "utf8");
  const t0 = now();
  const result = spawnSync(process.execPath, [NEXT_BIN, "build"], {
    cwd: ROOT,
    stdio: "inherit",
    env: { ...process.env, NODE_ENV: "production", NEXT_DIST_DIR: DIST_DIR, NEXT_TELEMETRY_DISABLED: "1" },
  });
  const after = readFileSync(tsconfigPath, "utf8");
  if (after !== before) {
    try {
      const parsed = JSON.parse(after) as { include?: string[] };
      parsed.include = parsed.include?.filter((p) => !p.startsWith(`${DIST_DIR}/`));
      // Only the added include is taken out; when that leaves the original settings, the original text
      // (its formatting included) goes back.
      const same = JSON.stringify(parsed) === JSON.stringify(JSON.parse(before));
      writeFileSync(tsconfigPath, same ? before : `${JSON.stringify(parsed, null, 2)}\n`);
    } catch {
      writeFileSync(tsconfigPath, before);
    }
  }
  if (result.status !== 0) throw new Error(`next build failed (exit ${result.status})`);
  return { reused: false, ms: Math.round(now() - t0) };
}

// ─── Paid submissions ───────────────────────────────────────────────────────────────────────────────

type PaidLevel = LoadResult & {
  challenge: Summary;
  sign: Summary;
  statusCounts: Record<string, number>;
  /** Per phase, from the paid answers' Server-Timing headers (ours only; the baseline sends none). */
  server?: Record<string, Summary>;
  /**
   * CPU per paid call over the level: the server process alone, and the whole machine (all cores),
   * with the machine's split by process.
   */
  cpu: {
    serverMsPerCall: number;
    machineMsPerCall: number;
    machineBusyPercent: number;
    sharesPerCall?: CpuShares;
  };
  /** With BENCH_REPEATS > 1: each repeat's p50 and req/s, in the order they ran. */
  repeats?: Array<{ p50: number; rps: number }>;
};

/** One run of a level, unsummarized, so repeats of it can be pooled. */
type RawLevel = Omit<LoadResult, "rps" | "latency"> & {
  latencies: number[];
  challengeMs: number[];
  signMs: number[];
  serverMs: Record<string, number[]>;
  statusCounts: Record<string, number>;
  cpu: { serverMs: number; machineMs: number; elapsedMs: number; shares: CpuShares };
};

/**
 * Closed loop of paid submissions at `concurrency`: per request, a fresh 402 and a freshly signed
 * payment (timed apart), then the paid call, whose latency is what p50/p95/p99 report.
 */
async function paidLevel(
  concurrency: number,
  count: number,
  prepare: (i: number) => Promise<Record<string, string>>,
  url: string,
  body: (i: number) => string,
  serverPid: number,
): Promise<RawLevel> {
  const raw = {
    latencies: [] as number[],
    challengeMs: [] as number[],
    signMs: [] as number[],
    serverMs: {} as Record<string, number[]>,
    statusCounts: {} as Record<string, number>,
  };
  const cpuBefore = {
    server: processCpuMs(serverPid) ?? 0,
    machine: machineBusyMs(),
    processes: processesCpu(),
    at: now(),
  };
  const agent = keepAliveAgent();
  const load = await closedLoop(count, concurrency, async (i, startClock) => {
    let res: Awaited<ReturnType<typeof postJson>>;
    let t0: number;
    try {
      const t = now();
      const headers = await prepare(i);
      const challenge = Number(headers["x-bench-challenge-ms"] ?? 0);
      raw.challengeMs.push(challenge);
      raw.signMs.push(now() - t - challenge);
      delete headers["x-bench-challenge-ms"];
      startClock();
      t0 = now();
      res = await postJson(agent, url, headers, body(i));
    } catch (error) {
      raw.statusCounts.exception = (raw.statusCounts.exception ?? 0) + 1;
      throw error;
    }
    raw.statusCounts[res.status] = (raw.statusCounts[res.status] ?? 0) + 1;
    if (res.status !== 200 && res.status !== 201) return `${res.status} ${res.text.slice(0, 300)}`;
    raw.latencies.push(now() - t0);
    const timing = res.headers["server-timing"];
    for (const [phase, ms] of Object.entries(
      parseServerTiming(Array.isArray(timing) ? timing.join(", ") : (timing ?? null)),
    )) {
      raw.serverMs[phase] = [...(raw.serverMs[phase] ?? []), ms];
    }
    return null;
  });
  agent.destroy();
  return {
    ...raw,
    concurrency,
    requests: load.requests,
    ok: load.ok,
    errors: load.errors,
    errorSamples: load.errorSamples,
    wallMs: load.wallMs,
    cpu: cpuSince(cpuBefore, serverPid),
  };
}

/** The CPU spent since `before`: the server's, the machine's and the machine's split by process. */
function cpuSince(
  before: { server: number; machine: number; processes: ReturnType<typeof processesCpu>; at: number },
  serverPid: number,
): RawLevel["cpu"] {
  const machineMs = machineBusyMs() - before.machine;
  return {
    serverMs: (processCpuMs(serverPid) ?? 0) - before.server,
    machineMs,
    elapsedMs: now() - before.at,
    shares: cpuShares(before.processes, processesCpu(), machineMs, serverPid),
  };
}

/** Shares summed over runs, per call. */
function sharesPerCall(shares: CpuShares[], calls: number): CpuShares {
  const per = (k: keyof CpuShares) =>
    Math.round((shares.reduce((a, x) => a + x[k], 0) / Math.max(1, calls)) * 10) / 10;
  return {
    server: per("server"),
    postgres: per("postgres"),
    anvil: per("anvil"),
    loadGenerator: per("loadGenerator"),
    rest: per("rest"),
  };
}

/** Pools one or more runs of a level: latencies and phases merged, req/s as calls over summed wall time. */
function pooled(runs: RawLevel[]): PaidLevel {
  const sum = (f: (r: RawLevel) => number) => runs.reduce((a, r) => a + f(r), 0);
  const all = (f: (r: RawLevel) => number[]) => runs.flatMap(f);
  const ok = sum((r) => r.ok);
  const wallMs = sum((r) => r.wallMs);
  const round = (x: number) => Math.round(x * 10) / 10;
  const rpsOf = (okCalls: number, ms: number) => Math.round((okCalls / (ms / 1000)) * 100) / 100;
  const phases = [...new Set(runs.flatMap((r) => Object.keys(r.serverMs)))];
  const statusCounts: Record<string, number> = {};
  for (const r of runs) {
    for (const [k, v] of Object.entries(r.statusCounts)) statusCounts[k] = (statusCounts[k] ?? 0) + v;
  }
  const machineMs = sum((r) => r.cpu.machineMs);
  return {
    concurrency: runs[0]!.concurrency,
    requests: sum((r) => r.requests),
    ok,
    errors: sum((r) => r.errors),
    errorSamples: runs.flatMap((r) => r.errorSamples).slice(0, 5),
    wallMs,
    rps: rpsOf(ok, wallMs),
    latency: summarize(all((r) => r.latencies)),
    challenge: summarize(all((r) => r.challengeMs)),
    sign: summarize(all((r) => r.signMs)),
    statusCounts,
    server: phases.length
      ? Object.fromEntries(phases.map((p) => [p, summarize(all((r) => r.serverMs[p] ?? []))]))
      : undefined,
    cpu: {
      serverMsPerCall: round(sum((r) => r.cpu.serverMs) / Math.max(1, ok)),
      machineMsPerCall: round(machineMs / Math.max(1, ok)),
      machineBusyPercent: Math.round((machineMs / (sum((r) => r.cpu.elapsedMs) * os.cpus().length)) * 100),
      sharesPerCall: sharesPerCall(
        runs.map((r) => r.cpu.shares),
        ok,
      ),
    },
    ...(runs.length > 1
      ? { repeats: runs.map((r) => ({ p50: summarize(r.latencies).p50, rps: rpsOf(r.ok, r.wallMs) })) }
      : {}),
  };
}

function x402Payers(info: DevnetInfo) {
  return info.accounts.map((a) =>
    createX402Fetch({
      privateKey: a.privateKey,
      network: info.x402.network,
      rpcUrl: info.x402.rpcUrl,
      asset: info.x402.asset,
    }),
  );
}

/**
 * One x402 level against one server. The challenge is static (no nonce), so one 402 per level is enough,
 * as a client would cache it; its round trip is sampled 5 times before the level. Each of the
 * `requestsFor(c)` requests then gets its own payment, signed with `.sign` by the official client before
 * the level's clock starts (as the ceiling's and the open loop's are), so the load generator's signing
 * takes no CPU from the server while it is measured; only the paid calls run in the timed loop.
 */
async function x402Level(
  payers: ReturnType<typeof x402Payers>,
  target: X402Target,
  c: number,
  count: number,
): Promise<RawLevel> {
  const { url } = target;
  const challengeMs: number[] = [];
  let required = "";
  for (let k = 0; k < 5; k++) {
    const t0 = now();
    const res = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: feedbackBody(k, "x402"),
    });
    await res.arrayBuffer();
    challengeMs.push(now() - t0);
    required = res.headers.get("payment-required") ?? "";
    if (res.status !== 402 || !required) throw new Error(`expected a 402 challenge, got ${res.status}`);
  }
  const signMs: number[] = [];
  const signatures: string[] = [];
  for (let i = 0; i < count; i++) {
    const t0 = now();
    signatures.push(await payers[i % payers.length]!.sign(required));
    signMs.push(now() - t0);
  }
  const level = await paidLevel(
    c,
    count,
    async (i) => ({ "payment-signature": signatures[i]! }),
    url,
    (i) => feedbackBody(i, "x402"),
    target.pid,
  );
  return { ...level, challengeMs, signMs };
}

type X402Target = {
  key: "x402" | "baseline";
  url: string;
  label: string;
  /** The server process, for its CPU time; a restart changes it. */
  pid: number;
  /** Stops the server and starts it again, fresh (its nonce cache and clients new), and sets `pid`. */
  restart?: () => Promise<void>;
};

/**
 * x402 levels against each target, never concurrently. Each timed run starts on the same chain (`chain`
 * reverted to the point after the devnet was funded) and a fresh server, which gets an untimed warm-up
 * first: ours, the withX402 baseline and the ceiling each meet the chain as it was, not as the runs
 * before them left it. Each level runs BENCH_REPEATS times alternating the order (ours, baseline;
 * baseline, ours; ...), the ceiling after them, and each target's repeats are pooled.
 */
async function x402Levels(
  info: DevnetInfo,
  targets: X402Target[],
  ceiling?: CeilingOptions,
  chain?: ChainPoint,
) {
  const payers = x402Payers(info);
  const out: Partial<Record<X402Target["key"], PaidLevel[] | { error: string }>> = {};
  const failedTarget = (t: X402Target) => {
    const sofar = out[t.key];
    return sofar !== undefined && !Array.isArray(sofar);
  };
  const freshRun = async (t: X402Target, c: number) => {
    await chain?.restore();
    await t.restart?.();
    await warmUp(payers, t);
    return x402Level(payers, t, c, requestsFor(c));
  };
  if (chain)
    console.log("  each run: the chain reverted to its funded state, a fresh server, an untimed warm-up");
  const ceilings: Array<CeilingLevel | { concurrency: number; error: string }> = [];
  for (const c of CONCURRENCY) {
    const runs = new Map<X402Target["key"], RawLevel[]>();
    const ceilingRuns: CeilingRun[] = [];
    for (let r = 0; r < REPEATS; r++) {
      for (const t of r % 2 ? [...targets].reverse() : targets) {
        if (failedTarget(t)) continue;
        const raw = await attempt(`${t.label} c=${c}`, () => freshRun(t, c));
        if ("error" in raw) {
          out[t.key] = raw;
          console.error(`  ✖ ${t.label}: ${raw.error}; its levels are skipped`);
        } else runs.set(t.key, [...(runs.get(t.key) ?? []), raw]);
      }
      if (ceiling) {
        const run = await attempt(`ceiling c=${c}`, async () => {
          await chain?.restore();
          return ceilingLevel(ceiling, c, requestsFor(c));
        });
        if (!("error" in run)) ceilingRuns.push(run);
        else ceilings.push({ concurrency: c, error: run.error });
      }
    }
    if (ceilingRuns.length) {
      const level = pooledCeiling(ceilingRuns);
      console.log(
        `  ${`ceiling c=${c}`.padEnd(16)} ${String(level.ok).padStart(4)}/${level.requests} ok  ${String(level.rps).padStart(7)} req/s  p50 ${level.latency.p50} ms  p95 ${level.latency.p95} ms  (settle alone, no HTTP, no database)`,
      );
      ceilings.push(level);
    }
    for (const t of targets) {
      const done = runs.get(t.key);
      if (failedTarget(t) || !done?.length) continue;
      const level = pooled(done);
      printLevel(`${t.label} c=${c}`, level);
      out[t.key] = [...((out[t.key] as PaidLevel[] | undefined) ?? []), level];
    }
  }
  return { ...out, ...(ceiling ? { ceiling: ceilings } : {}) };
}

/** A fresh server's untimed warm-up before anything of it is measured: BENCH_WARMUP paid calls at c=8. */
async function warmUp(payers: ReturnType<typeof x402Payers>, target: X402Target) {
  if (!WARMUP) return;
  const warm = await x402Level(payers, target, 8, WARMUP);
  if (warm.errors) throw new Error(`warm-up failed: ${warm.errorSamples[0]}`);
}

const IDLE_SECONDS = envNumber("BENCH_IDLE_SECONDS", QUICK ? 10 : 30);

/**
 * What a warmed server spends with no traffic: a fresh server on the reverted chain, the levels' untimed
 * warm-up, a second for its last answers' work, then BENCH_IDLE_SECONDS of nothing. A constant cost of
 * this kind is charged to every call as a share that grows as the rate falls; here it is read directly.
 */
async function idleCpu(info: DevnetInfo, target: X402Target, chain?: ChainPoint) {
  await chain?.restore();
  await target.restart?.();
  await warmUp(x402Payers(info), target);
  await sleep(1000);
  const before = { machine: machineBusyMs(), processes: processesCpu(), at: now() };
  await sleep(IDLE_SECONDS * 1000);
  const seconds = (now() - before.at) / 1000;
  const machineMs = machineBusyMs() - before.machine;
  const shares = cpuShares(before.processes, processesCpu(), machineMs, target.pid);
  const perSecond = (ms: number) => Math.round((ms / seconds) * 10) / 10;
  return {
    seconds: Math.round(seconds),
    warmupCalls: WARMUP,
    machineMsPerSecond: perSecond(machineMs),
    msPerSecond: Object.fromEntries(Object.entries(shares).map(([k, v]) => [k, perSecond(v)])) as Record<
      keyof CpuShares,
      number
    >,
  };
}

type CeilingOptions = { env: Record<string, string>; key: string };
type CeilingRun = LoadResult & {
  samples: number[];
  cpu?: { ownMs: number; machineMs: number; shares?: CpuShares };
};
type CeilingLevel = LoadResult & {
  repeats: Array<{ p50: number; rps: number }>;
  /** CPU per settled payment: the settling process alone, and the whole machine (the chain's too). */
  cpu?: { serverMsPerCall: number; machineMsPerCall: number; sharesPerCall?: CpuShares };
};

/** One ceiling run: the facilitator's settle alone, in a child process (scripts/bench/inproc.ts ceiling). */
async function ceilingLevel(
  options: CeilingOptions,
  concurrency: number,
  count: number,
): Promise<CeilingRun> {
  const file = path.join(tmp, `ceiling-${concurrency}.json`);
  await runInProcessChild(path.join(ROOT, "scripts/bench/inproc.ts"), ["ceiling", file], {
    ...options.env,
    BENCH_CEILING_KEY: options.key,
    BENCH_CEILING_CONCURRENCY: String(concurrency),
    BENCH_CEILING_REQUESTS: String(count),
    BENCH_CEILING_WARMUP: String(QUICK ? 8 : 32),
  });
  return JSON.parse(readFileSync(file, "utf8")) as CeilingRun;
}

function pooledCeiling(runs: CeilingRun[]): CeilingLevel {
  const ok = runs.reduce((a, r) => a + r.ok, 0);
  const wallMs = runs.reduce((a, r) => a + r.wallMs, 0);
  const perCall = (f: (cpu: NonNullable<CeilingRun["cpu"]>) => number) =>
    Math.round((runs.reduce((a, r) => a + (r.cpu ? f(r.cpu) : 0), 0) / Math.max(1, ok)) * 10) / 10;
  return {
    concurrency: runs[0]!.concurrency,
    requests: runs.reduce((a, r) => a + r.requests, 0),
    ok,
    errors: runs.reduce((a, r) => a + r.errors, 0),
    errorSamples: runs.flatMap((r) => r.errorSamples).slice(0, 5),
    wallMs,
    rps: Math.round((ok / (wallMs / 1000)) * 100) / 100,
    latency: summarize(runs.flatMap((r) => r.samples)),
    repeats: runs.map((r) => ({ p50: r.latency.p50, rps: r.rps })),
    ...(runs.every((r) => r.cpu)
      ? {
          cpu: {
            serverMsPerCall: perCall((c) => c.ownMs),
            machineMsPerCall: perCall((c) => c.machineMs),
            ...(runs.every((r) => r.cpu?.shares)
              ? {
                  sharesPerCall: sharesPerCall(
                    runs.map((r) => r.cpu!.shares!),
                    ok,
                  ),
                }
              : {}),
          },
        }
      : {}),
  };
}

type MppTarget = { key: "mpp" | "mppBaseline"; url: string; label: string; pid: number };

/** The official mppx client, one per devnet wallet. */
function mppClients(info: DevnetInfo) {
  return info.accounts.map((a) =>
    Mppx.create({
      methods: [
        tempo.charge({
          account: privateKeyToAccount(a.privateKey),
          getClient: () => tempoClient(info.tempo),
        }),
      ],
      polyfill: false,
    }),
  );
}

/** A fresh 402 from `url` and a credential for it from the payer: what an MPP client sends to pay. */
async function mppCredential(
  clients: ReturnType<typeof mppClients>,
  url: string,
  i: number,
  protocol: string,
) {
  const t0 = now();
  const res = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: feedbackBody(i, protocol),
  });
  await res.clone().arrayBuffer();
  if (res.status !== 402) throw new Error(`expected a 402 challenge, got ${res.status}`);
  const challengeMs = now() - t0;
  const credential = await clients[i % clients.length]!.createCredential(res);
  return { authorization: credential, "x-bench-challenge-ms": String(challengeMs) };
}

/**
 * MPP: one 402 per request (each challenge is unique), a credential from the official mppx client, then
 * the paid call, which alone is timed. Ours and mppx's own handler get the same warm-up, then alternate
 * at each level (ours first at odd levels), on the same chain and payers.
 */
async function mppLevels(info: DevnetInfo, targets: MppTarget[]) {
  const clients = mppClients(info);
  const out: Partial<Record<MppTarget["key"], PaidLevel[]>> = {};
  for (const t of targets) {
    if (!WARMUP) break;
    const raw = await mppLevel(clients, t, 8, Math.min(WARMUP, 16));
    console.log(`  ${`${t.label} warm-up`.padEnd(16)} ${raw.ok}/${raw.requests} ok (untimed)`);
  }
  // The highest level, which the target is judged at, runs BENCH_REPEATS times alternating the order,
  // pooled: at Tempo's one-second blocks a single run of it lasts about 13 s, so one block more or less at
  // its end moves its rate by several percent.
  const judged = CONCURRENCY.at(-1);
  for (const [k, c] of CONCURRENCY.entries()) {
    const runs = new Map<MppTarget["key"], RawLevel[]>();
    for (let r = 0; r < (c === judged ? REPEATS : 1); r++) {
      for (const t of (k + r) % 2 ? [...targets].reverse() : targets) {
        runs.set(t.key, [...(runs.get(t.key) ?? []), await mppLevel(clients, t, c, requestsFor(c))]);
      }
    }
    for (const t of targets) {
      const level = pooled(runs.get(t.key) ?? []);
      printLevel(`${t.label} c=${c}`, level);
      out[t.key] = [...(out[t.key] ?? []), level];
    }
  }
  if (SECTIONS.has("open")) {
    section("Paid submissions over MPP at a fixed arrival rate (open loop)");
    const rate = openRate(targets.map((t) => out[t.key]));
    const results = [];
    for (const t of targets) {
      // Credentials are made before the clock starts: only the paid calls arrive at the fixed rate.
      const count = envNumber("BENCH_OPEN_MPP_REQUESTS", QUICK ? 20 : 120);
      const credentials: Array<{ authorization: string }> = [];
      for (let i = 0; i < count; i++) credentials.push(await mppCredential(clients, t.url, i, "mpp-open"));
      const agent = keepAliveAgent();
      const load = await openLoop(count, rate, (i) =>
        paidCall(agent, t.url, { authorization: credentials[i]!.authorization }, feedbackBody(i, "mpp-open")),
      );
      agent.destroy();
      printOpen(t.label, load);
      results.push({ key: t.key, label: t.label, ...load });
    }
    return { ...out, mppOpen: results };
  }
  return out;
}

function mppLevel(clients: ReturnType<typeof mppClients>, t: MppTarget, c: number, count: number) {
  return paidLevel(
    c,
    count,
    (i) => mppCredential(clients, t.url, i, "mpp"),
    t.url,
    (i) => feedbackBody(i, "mpp"),
    t.pid,
  );
}

/** One paid POST: null when it was answered 200 or 201, otherwise what came back. */
async function paidCall(
  agent: Agent,
  url: string,
  headers: Record<string, string>,
  body: string,
): Promise<string | null> {
  const res = await postJson(agent, url, headers, body);
  return res.status === 200 || res.status === 201 ? null : `${res.status} ${res.text.slice(0, 300)}`;
}

/**
 * The open loop's arrival rate: BENCH_OPEN_RATE, or 60% of the slowest target's closed-loop rate at its
 * highest concurrency, so every target can keep up and latency shows the call, not a queue. A target's
 * rate is the median of its repeats, so one repeat that stalled does not slow every open-loop run down.
 */
function openRate(levels: Array<PaidLevel[] | { error: string } | undefined>) {
  const fixed = envNumber("BENCH_OPEN_RATE", 0);
  if (fixed) return fixed;
  const top = levels
    .map((l) => {
      const level = Array.isArray(l) ? l.at(-1) : undefined;
      return level?.repeats?.length ? summarize(level.repeats.map((r) => r.rps)).p50 : (level?.rps ?? 0);
    })
    .filter((r) => r > 0);
  return top.length ? Math.max(1, Math.round(Math.min(...top) * 0.6 * 10) / 10) : 5;
}

// Open-loop x402 payments are all signed before the clock, and each is good for the 402's
// maxTimeoutSeconds; the server refuses one with less than a few seconds left. The run keeps well
// inside that, whatever the rate: 20 s are left for the signing before it and that margin.
const OPEN_X402_SECONDS = X402_MAX_TIMEOUT_SECONDS - 20;

function printOpen(label: string, l: Awaited<ReturnType<typeof openLoop>>) {
  console.log(
    `  ${label.padEnd(16)} ${String(l.ok).padStart(4)}/${l.requests} ok at ${l.ratePerSecond}/s  p50 ${l.latency.p50} ms  p95 ${l.latency.p95} ms  p99 ${l.latency.p99} ms  (at most ${l.maxInFlight} in flight)${l.errors ? `  errors: ${l.errorSamples[0]}` : ""}`,
  );
}

/**
 * x402 at a fixed arrival rate, against each target in turn, with payments signed before the clock; each
 * on the funded chain and a fresh, warmed-up server, as the levels are.
 */
async function x402OpenLoop(
  info: DevnetInfo,
  targets: X402Target[],
  levels: Partial<Record<string, PaidLevel[] | { error: string } | unknown>>,
  chain: ChainPoint,
) {
  const payers = x402Payers(info);
  const rate = openRate(targets.map((t) => levels[t.key] as PaidLevel[] | { error: string } | undefined));
  const count = Math.min(
    envNumber("BENCH_OPEN_REQUESTS", QUICK ? 30 : 240),
    Math.max(1, Math.floor(rate * OPEN_X402_SECONDS)),
  );
  const out = [];
  for (const t of targets) {
    await chain.restore();
    await t.restart?.();
    if (WARMUP) await x402Level(payers, t, 8, WARMUP);
    const res = await fetch(t.url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: feedbackBody(0, "x402-open"),
    });
    await res.arrayBuffer();
    const required = res.headers.get("payment-required") ?? "";
    const signatures = await Promise.all(
      Array.from({ length: count }, (_, i) => payers[i % payers.length]!.sign(required)),
    );
    const agent = keepAliveAgent();
    const load = await openLoop(count, rate, (i) =>
      paidCall(agent, t.url, { "payment-signature": signatures[i]! }, feedbackBody(i, "x402-open")),
    );
    agent.destroy();
    printOpen(t.label, load);
    out.push({ key: t.key, label: t.label, ...load });
  }
  return out;
}

function printLevel(label: string, l: PaidLevel) {
  console.log(
    `  ${label.padEnd(16)} ${String(l.ok).padStart(4)}/${l.requests} ok  ${String(l.rps).padStart(7)} req/s  p50 ${l.latency.p50} ms  p95 ${l.latency.p95} ms  p99 ${l.latency.p99} ms  (402 ${l.challenge.p50} ms, sign ${l.sign.p50} ms)${l.errors ? `  errors: ${JSON.stringify(l.statusCounts)} ${l.errorSamples[0] ?? ""}` : ""}`,
  );
  console.log(
    `  ${"".padEnd(16)} CPU per call: server ${l.cpu.serverMsPerCall} ms, machine ${l.cpu.machineMsPerCall} ms (machine ${l.cpu.machineBusyPercent}% busy)${l.cpu.sharesPerCall ? `; PostgreSQL ${l.cpu.sharesPerCall.postgres}, anvil ${l.cpu.sharesPerCall.anvil}, load generator ${l.cpu.sharesPerCall.loadGenerator}, rest ${l.cpu.sharesPerCall.rest}` : ""}`,
  );
  if (l.repeats) {
    console.log(
      `  ${"".padEnd(16)} repeats (p50 ms @ req/s): ${l.repeats.map((r) => `${r.p50} @ ${r.rps}`).join(", ")}`,
    );
  }
  if (l.server) {
    const phases = Object.entries(l.server).map(([phase, s]) => `${phase} ${s.p50}`);
    console.log(`  ${"".padEnd(16)} server p50 ms: ${phases.join(", ")}`);
  }
}

// ─── Inbox over HTTP ────────────────────────────────────────────────────────────────────────────────

type PreparedInbox = {
  inbox: { cases: Array<{ name: string; params: Record<string, string> }>; pageLimit: number };
};

/**
 * The floor under any call to this server: GET /healthz, a handler that answers a constant through the
 * same wrapper (request id, Server-Timing, metrics), and, when given, the same constant answer from bare
 * Next.js (the baseline app's api/ping: no wrapper, no proxy, no instrumentation), called in turn. With
 * fetch it is what Next.js routing, the loopback and the client cost together before any work of ours;
 * with node:http on a kept-alive socket, how much of that is the client's. Each server's CPU per call,
 * once warm, is what a request costs it before any work.
 */
async function httpFloor(targets: { ours: FloorTarget; bare?: FloorTarget }) {
  const samples = envNumber("BENCH_FLOOR_SAMPLES", 200);
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const clients: Record<"fetch" | "nodeHttp", (url: string) => Promise<unknown>> = {
    fetch: async (url) => (await fetch(url)).json(),
    nodeHttp: (url) =>
      new Promise<void>((resolve, reject) => {
        httpRequest(url, { agent }, (res) => {
          res.resume();
          res.on("end", resolve);
        })
          .on("error", reject)
          .end();
      }),
  };
  const urls = Object.entries(targets).filter((e): e is [string, FloorTarget] => e[1] !== undefined);
  const out: Record<string, { fetch?: Summary; nodeHttp?: Summary; cpuMsPerCall?: number }> = {};
  for (const [name, call] of Object.entries(clients)) {
    const latencies: Record<string, number[]> = Object.fromEntries(urls.map(([target]) => [target, []]));
    for (let i = -20; i < samples; i++) {
      for (const [target, { url }] of urls) {
        const t0 = now();
        await call(url);
        if (i >= 0) latencies[target]!.push(now() - t0);
      }
    }
    for (const [target, values] of Object.entries(latencies)) {
      const summary = summarize(values);
      out[target] = { ...out[target], [name]: summary };
      console.log(
        `  GET ${target === "ours" ? "/healthz (ours)" : "/api/ping (bare Next.js)"} with ${name.padEnd(9)} p50 ${summary.p50} ms  p95 ${summary.p95} ms`,
      );
    }
  }
  // CPU once both servers are warm (the passes above): each alone, over kept-alive calls back to back.
  const cpuCalls = envNumber("BENCH_FLOOR_CPU_CALLS", 1000);
  for (const [target, { url, pid }] of urls) {
    const before = processCpuMs(pid);
    for (let i = 0; i < cpuCalls; i++) await clients.nodeHttp(url);
    const after = processCpuMs(pid);
    if (before === null || after === null) continue;
    out[target]!.cpuMsPerCall = Math.round(((after - before) / cpuCalls) * 100) / 100;
    console.log(
      `  ${target === "ours" ? "ours" : "bare Next.js"}: ${out[target]!.cpuMsPerCall} ms of server CPU per call (${cpuCalls} calls, warm)`,
    );
  }
  agent.destroy();
  return out;
}

type FloorTarget = { url: string; pid: number };

async function inboxOverHttp(appUrl: string, info: DevnetInfo, prepared: PreparedInbox) {
  const samples = envNumber("BENCH_LIST_SAMPLES", 30);
  const owner = info.accounts[0]!;
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const out = [];
  for (const c of prepared.inbox.cases) {
    const qs = new URLSearchParams({
      namespace: INBOX_NAMESPACE,
      limit: String(prepared.inbox.pageLimit),
      ...c.params,
    });
    const url = `${appUrl}/api/namespace/list?${qs}`;
    const serverMs: Record<string, number[]> = {};
    let count = -1;
    let failures = 0;
    let lastError = "";
    // Every proof is fetched and signed before the clock, so the calls run back to back like the
    // in-process samples they are compared with: a client signing between calls leaves the server and
    // the database idle, and on this VM each wakes a millisecond or more late for the next statement.
    const proofs: string[] = [];
    for (let i = -4; i < 2 * samples; i++) proofs.push(await signInHeader(fetch, url, owner.privateKey));
    // Both clients ask for gzip. node:http on a kept-alive socket is the load generator's own client
    // (postJson); fetch is what most agents call with, and costs the client a few milliseconds more.
    const clients = {
      nodeHttp: async (proof: string) => {
        const res = await getText(agent, url, { "SIGN-IN-WITH-X": proof });
        return { status: res.status, body: res.text, timing: res.headers["server-timing"] };
      },
      fetch: async (proof: string) => {
        const res = await fetch(url, { headers: { "SIGN-IN-WITH-X": proof } });
        return { status: res.status, body: await res.text(), timing: res.headers.get("server-timing") };
      },
    };
    const latencies: Record<keyof typeof clients, number[]> = { nodeHttp: [], fetch: [] };
    // Two unmeasured calls first, so the first case does not pay for a cold cache alone; the clients
    // alternate call by call, so neither meets a quieter machine than the other.
    for (let i = -4; i < 2 * samples; i++) {
      const client = i % 2 === 0 ? "nodeHttp" : "fetch";
      const t0 = now();
      const res = await clients[client](proofs[i + 4]!);
      const body = JSON.parse(res.body) as { count?: number };
      const dt = now() - t0;
      if (i < 0) continue;
      if (res.status === 200) {
        latencies[client].push(dt);
        for (const [phase, ms] of Object.entries(parseServerTiming(String(res.timing ?? "")))) {
          serverMs[phase] = [...(serverMs[phase] ?? []), ms];
        }
        count = body.count ?? -1;
      } else {
        failures++;
        lastError = `${res.status} ${res.body.slice(0, 200)}`;
      }
    }
    const latency = summarize(latencies.nodeHttp);
    const fetchLatency = summarize(latencies.fetch);
    const server = Object.fromEntries(Object.entries(serverMs).map(([p, v]) => [p, summarize(v)]));
    out.push({ name: c.name, items: count, failures, lastError, latency, fetchLatency, server });
    const phases = Object.entries(server)
      .map(([p, v]) => `${p} ${v.p50}`)
      .join(", ");
    console.log(
      `  ${c.name.padEnd(44)} p50 ${latency.p50} ms  p95 ${latency.p95} ms  (fetch p50 ${fetchLatency.p50} ms)  server p50: ${phases}  (${count} items${failures ? `, ${failures} failed: ${lastError}` : ""})`,
    );
  }
  agent.destroy();
  return out;
}

// ─── Soak with RSS samples ──────────────────────────────────────────────────────────────────────────

type MemorySample = { t: number; rss: number; heapUsed: number; heapTotal: number; external: number };

/** The server's own process.memoryUsage(), as its /metrics reports it, in MiB. */
async function serverMemory(appUrl: string, token: string): Promise<Omit<MemorySample, "t"> | null> {
  try {
    const res = await fetch(`${appUrl}/metrics`, { headers: { authorization: `Bearer ${token}` } });
    const text = await res.text();
    const value = (name: string) => {
      const line = text.split("\n").find((l) => l.startsWith(`${name} `));
      return line ? Math.round((Number(line.split(" ")[1]) / 1048576) * 10) / 10 : Number.NaN;
    };
    return {
      rss: value("process_resident_memory_bytes"),
      heapUsed: value("nodejs_heap_size_used_bytes"),
      heapTotal: value("nodejs_heap_size_total_bytes"),
      external: value("nodejs_external_memory_bytes"),
    };
  } catch {
    return null;
  }
}

/**
 * Whether memory is flat after warm-up: from the first fifth of the soak on, the spread of RSS (largest
 * less smallest, over the smallest) and its drift (last over first), both in percent. The target is 10%.
 */
function flatness(samples: MemorySample[], seconds: number, key: "rss" | "heapUsed") {
  const after = samples.filter((x) => x.t >= seconds / 5 && Number.isFinite(x[key]));
  if (after.length < 2) return null;
  const values = after.map((x) => x[key]);
  const min = Math.min(...values);
  const pct = (x: number) => Math.round(x * 1000) / 10;
  return {
    fromSecond: after[0]!.t,
    spreadPercent: pct((Math.max(...values) - min) / min),
    driftPercent: pct((values.at(-1)! - values[0]!) / values[0]!),
  };
}

async function soak(info: DevnetInfo, url: string, app: NextApp, metricsToken: string) {
  const payers = x402Payers(info);
  const pid = nextServerPid(app.pid);
  const rss: Array<{ t: number; kib: number }> = [];
  const memory: MemorySample[] = [];
  const start = now();
  const sample = () => {
    const t = Math.round((now() - start) / 1000);
    const kib = rssKiB(pid);
    if (kib !== null) rss.push({ t, kib });
    void serverMemory(app.url, metricsToken).then((m) => m && memory.push({ t, ...m }));
  };
  sample();
  const timer = setInterval(sample, 5000);
  const deadline = start + SOAK_SECONDS * 1000;
  let ok = 0;
  let errors = 0;
  const latencies: number[] = [];
  let required: string | undefined;
  let i = 0;
  const worker = async () => {
    while (now() < deadline) {
      const n = i++;
      try {
        if (!required || n % 50 === 0) {
          const res = await fetch(url, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: feedbackBody(n, "soak"),
          });
          await res.arrayBuffer();
          required = res.headers.get("payment-required") ?? required;
        }
        const signature = await payers[n % payers.length]!.sign(required!);
        const t0 = now();
        const res = await fetch(url, {
          method: "POST",
          headers: { "content-type": "application/json", "payment-signature": signature },
          body: feedbackBody(n, "soak"),
        });
        await res.arrayBuffer();
        if (res.status === 200) {
          ok++;
          latencies.push(now() - t0);
        } else errors++;
      } catch {
        errors++;
      }
    }
  };
  await Promise.all(Array.from({ length: 32 }, worker));
  clearInterval(timer);
  sample();
  await sleep(500);
  const seconds = (now() - start) / 1000;
  const kibs = rss.map((r) => r.kib);
  const out = {
    seconds: Math.round(seconds),
    concurrency: 32,
    protocol: "x402",
    ok,
    errors,
    rps: Math.round((ok / seconds) * 100) / 100,
    latency: summarize(latencies),
    rssMiB: {
      pid,
      start: Math.round(kibs[0]! / 102.4) / 10,
      end: Math.round(kibs.at(-1)! / 102.4) / 10,
      max: Math.round(Math.max(...kibs) / 102.4) / 10,
      samples: rss.map((r) => ({ t: r.t, mib: Math.round(r.kib / 102.4) / 10 })),
    },
    heapCapMiB: SOAK_HEAP_MIB,
    memory: memory.sort((a, b) => a.t - b.t),
    flat: { rss: flatness(memory, seconds, "rss"), heapUsed: flatness(memory, seconds, "heapUsed") },
  };
  console.log(
    `  ${out.seconds} s at c=32: ${ok} ok, ${errors} errors, ${out.rps} req/s; RSS start ${out.rssMiB.start} MiB, end ${out.rssMiB.end} MiB, max ${out.rssMiB.max} MiB`,
  );
  console.log(
    `  after warm-up: RSS ${JSON.stringify(out.flat.rss)}, heap used ${JSON.stringify(out.flat.heapUsed)}`,
  );
  return out;
}

// ─── Baseline ───────────────────────────────────────────────────────────────────────────────────────

/** Formats the results file the way the repository's biome does, so `npm run lint` stays clean. */
function formatJson(file: string) {
  const biome = path.join(ROOT, "node_modules/.bin/biome");
  if (existsSync(biome)) spawnSync(biome, ["format", "--write", file], { cwd: ROOT, stdio: "ignore" });
}

// ─── Main ───────────────────────────────────────────────────────────────────────────────────────────

async function attempt<T>(name: string, fn: () => Promise<T>): Promise<T | { error: string }> {
  try {
    return await fn();
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    console.error(`  ✖ ${name} failed: ${message}`);
    return { error: message };
  }
}

async function main() {
  const startedAt = new Date();
  const database = DATABASE_URL ? "PostgreSQL (DATABASE_URL)" : "embedded PGlite (on disk, temp dir)";
  console.log(`Benchmark — database: ${database}${QUICK ? " — BENCH_QUICK=1 (reduced sizes)" : ""}`);
  results.startedAt = startedAt.toISOString();
  results.database = DATABASE_URL ? "postgres" : "pglite";
  results.machine = machineInfo(DATABASE_URL);
  results.config = {
    quick: QUICK,
    concurrency: CONCURRENCY,
    requestsPerLevel: Object.fromEntries(CONCURRENCY.map((c) => [c, requestsFor(c)])),
    soakSeconds: SOAK_SECONDS,
    inboxNsRows: Number(process.env.BENCH_INBOX_NS_ROWS ?? 100_000),
    inboxTotalRows: Number(process.env.BENCH_INBOX_TOTAL_ROWS ?? 1_000_000),
    sections: [...SECTIONS],
  };

  if (SECTIONS.has("alike")) {
    section("Duplicate suggestions on labelled pairs (precision and recall of automatic joins)");
    const alikeFile = path.join(tmp, "alike.json");
    results.alike = await attempt("alike", async () => {
      await runInProcessChild(path.join(ROOT, "scripts/bench/alike.ts"), [alikeFile], {
        ...(DATABASE_URL ? { DATABASE_URL } : {}),
      });
      return JSON.parse(readFileSync(alikeFile, "utf8"));
    });
  }

  const port = await freePort();
  const appUrl = `http://127.0.0.1:${port}`;
  section("Devnet");
  const devnet = await startDevnet({ appUrl });
  stopList.push(() => devnet.stop());
  const info = devnet.info;
  // The funded devnet, before any section pays: each x402 run and the soak start from here.
  const funded = await chainPoint(info.x402.rpcUrl);
  const pgliteDir = path.join(tmp, "pglite");
  const env = devnetAppEnv(info, { databaseUrl: DATABASE_URL, pgliteDir });
  const childEnv = { ...env, NEXT_DIST_DIR: DIST_DIR, BENCH_DEVNET: JSON.stringify(info) };
  console.log(`  anvil ${info.x402.rpcUrl}, tempo ${info.tempo.rpcUrl}, app ${appUrl}`);

  section(`Production build (next build → ${DIST_DIR})`);
  results.build = buildApp();

  if (SECTIONS.has("inbox") || SECTIONS.has("siwx")) {
    section("Inbox seed, query plans, in-process list and sign-in verification");
    const preparedFile = path.join(tmp, "prepared.json");
    const prepared = await attempt("prepare", async () => {
      await runInProcessChild(
        path.join(ROOT, "scripts/bench/inproc.ts"),
        ["prepare", preparedFile],
        childEnv,
      );
      return JSON.parse(readFileSync(preparedFile, "utf8")) as PreparedInbox & Record<string, unknown>;
    });
    results.prepared = prepared;
  }

  if (SECTIONS.has("phases")) {
    // Before `next start`: on PGlite the database belongs to one process, and no two facilitators may
    // settle from one key at once.
    section("Server-side phases of a paid x402 submission (in-process: claim, settle, commit)");
    const phasesFile = path.join(tmp, "phases.json");
    results.phases = await attempt("phases", async () => {
      // From the fourth key: never the one the server started next settles from.
      await runInProcessChild(path.join(ROOT, "scripts/bench/inproc.ts"), ["phases", phasesFile], {
        ...childEnv,
        X402_FACILITATOR_PRIVATE_KEY: childEnv.X402_FACILITATOR_PRIVATE_KEY!.split(",")[3]!,
      });
      return JSON.parse(readFileSync(phasesFile, "utf8"));
    });
  }

  if (["x402", "ceiling", "baseline", "mpp", "inbox", "soak"].some((s) => SECTIONS.has(s))) {
    await singleInstance(info, env, childEnv, port, appUrl, funded);
  }
  if (SECTIONS.has("instances")) {
    section("Many instances: `next start` behind a round-robin balancer on one PostgreSQL");
    results.instances = DATABASE_URL
      ? await attempt("instances", () => benchInstances(instancesOptions(DATABASE_URL)))
      : { skipped: "needs DATABASE_URL: an embedded database (PGlite) belongs to one process" };
  }

  results.finishedAt = new Date().toISOString();
  results.loadAverageAtEnd = os.loadavg().map((x) => Math.round(x * 100) / 100);
  mkdirSync(path.dirname(OUT), { recursive: true });
  writeFileSync(OUT, `${JSON.stringify(results, null, 2)}\n`);
  formatJson(OUT);
  const table = writeReport(results, path.join(ROOT, "BENCHMARKS.md"), path.relative(ROOT, OUT));
  console.log(`\n${table}\nResults: ${path.relative(ROOT, OUT)} and BENCHMARKS.md`);
}

function instancesOptions(serverUrl: string) {
  const counts = (process.env.BENCH_INSTANCES ?? "1,2,4").split(",").map(Number);
  if (counts.some((n) => !Number.isInteger(n) || n < 1 || n > 4)) {
    throw new Error("BENCH_INSTANCES must list counts from 1 to 4 (the devnet has four facilitator keys)");
  }
  return {
    serverUrl,
    distDir: DIST_DIR,
    counts,
    concurrency: envNumber("BENCH_INSTANCES_CONCURRENCY", 32),
    requests: envNumber("BENCH_INSTANCES_REQUESTS", QUICK ? 64 : 384),
    warmup: WARMUP,
    costCalls: envNumber("BENCH_COST_CALLS", QUICK ? 4 : 10),
    idleMs: QUICK ? 6_000 : 12_000,
  };
}

/**
 * The sections measured against one `next start`: paid submissions beside their anchors, inbox pages, and
 * the soak. Ours, the withX402 baseline and the ceiling each send from their own facilitator key, so none
 * finds its nonce moved by another.
 */
async function singleInstance(
  info: DevnetInfo,
  env: Record<string, string>,
  childEnv: Record<string, string>,
  port: number,
  appUrl: string,
  funded: ChainPoint,
) {
  const keys = (env.X402_FACILITATOR_PRIVATE_KEY ?? "").split(",");
  const ourEnv = {
    ...env,
    NEXT_DIST_DIR: DIST_DIR,
    X402_FACILITATOR_PRIVATE_KEY: keys[0]!,
  };
  section("next start");
  let app = await startNext({ dir: ROOT, port, env: ourEnv });
  stopList.push(() => app.stop());
  let serverPid = nextServerPid(app.pid);
  results.rssAfterStartMiB = Math.round((rssKiB(serverPid) ?? 0) / 102.4) / 10;
  const feedbackUrl = `${appUrl}/api/namespace/feedback`;

  const targets: X402Target[] = [];
  if (SECTIONS.has("x402")) {
    const ours: X402Target = { key: "x402", url: feedbackUrl, label: "x402", pid: serverPid };
    ours.restart = async () => {
      await app.stop();
      app = await startNext({ dir: ROOT, port, env: ourEnv });
      serverPid = nextServerPid(app.pid);
      ours.pid = serverPid;
    };
    targets.push(ours);
  }
  let baseline: NextApp | undefined;
  if (SECTIONS.has("baseline")) {
    const started = await startBaselineApp({
      source: "scripts/bench/baseline",
      name: "baseline-app",
      port: await freePort(),
      env: { ...env, X402_FACILITATOR_PRIVATE_KEY: keys[1]! },
      tmp,
    });
    baseline = started;
    stopList.push(() => baseline!.stop());
    section("The floor under any call: a constant answer from our server and from bare Next.js");
    const floors = await attempt("floor", () =>
      httpFloor({
        ours: { url: `${appUrl}/healthz`, pid: serverPid },
        bare: { url: `${started.url}/api/ping`, pid: nextServerPid(started.pid) },
      }),
    );
    if ("error" in floors) results.httpFloor = floors;
    else {
      results.httpFloor = floors.ours;
      results.httpFloorBare = floors.bare;
    }
    const theirs: X402Target = {
      key: "baseline",
      url: `${started.url}/api/feedback`,
      label: "baseline x402",
      pid: nextServerPid(started.pid),
    };
    theirs.restart = async () => {
      await baseline!.stop();
      baseline = await started.startAgain();
      theirs.pid = nextServerPid(baseline.pid);
    };
    targets.push(theirs);
  }
  const ceiling = SECTIONS.has("ceiling") ? { env: childEnv, key: keys[2]! } : undefined;
  if (targets.length || ceiling) {
    section("Paid submissions over x402: ours, the withX402 baseline and the ceiling, level by level");
    const levels = await x402Levels(info, targets, ceiling, funded);
    if (levels.x402) results.x402 = levels.x402;
    if (levels.baseline) results.baseline = levels.baseline;
    if (levels.ceiling) results.ceiling = levels.ceiling;
    const ours = targets.find((t) => t.key === "x402");
    if (ours) {
      section("Our server with no traffic, after its warm-up");
      const idle = await attempt("idle", () => idleCpu(info, ours, funded));
      results.idle = idle;
      if (!("error" in idle)) {
        console.log(
          `  server ${idle.msPerSecond.server} ms of CPU per second over ${idle.seconds} s (machine ${idle.machineMsPerSecond}, anvil ${idle.msPerSecond.anvil}, PostgreSQL ${idle.msPerSecond.postgres})`,
        );
      }
    }
    if (SECTIONS.has("open") && targets.length) {
      section("Paid submissions over x402 at a fixed arrival rate (open loop)");
      results.x402Open = await attempt("x402 open loop", () => x402OpenLoop(info, targets, levels, funded));
    }
  }
  await baseline?.stop();
  if (SECTIONS.has("mpp")) {
    const mppTargets: MppTarget[] = [{ key: "mpp", url: feedbackUrl, label: "MPP", pid: serverPid }];
    let mppBaseline: NextApp | undefined;
    if (SECTIONS.has("baseline")) {
      mppBaseline = await startBaselineApp({
        source: "scripts/bench/mpp-baseline",
        name: "mpp-baseline-app",
        port: await freePort(),
        env,
        tmp,
      });
      stopList.push(() => mppBaseline!.stop());
      mppTargets.push({
        key: "mppBaseline",
        url: `${mppBaseline.url}/api/feedback`,
        label: "mppx handler",
        pid: nextServerPid(mppBaseline.pid),
      });
    }
    section("Paid submissions over MPP: ours and mppx's own Next.js handler, level by level");
    const mpp = await attempt("mpp", () => mppLevels(info, mppTargets));
    if ("error" in mpp) results.mpp = mpp;
    else Object.assign(results, mpp);
    await mppBaseline?.stop();
  }
  const prepared = results.prepared as (PreparedInbox & { error?: string }) | undefined;
  if (SECTIONS.has("inbox") && prepared && !prepared.error) {
    section("Inbox pages over HTTP (fresh sign-in proof per request, only the list call timed)");
    // Measured beside bare Next.js in the baseline section when it ran; here otherwise.
    results.httpFloor ??= await attempt(
      "floor",
      async () => (await httpFloor({ ours: { url: `${appUrl}/healthz`, pid: nextServerPid(app.pid) } })).ours,
    );
    results.inboxHttp = await attempt("inbox", () => inboxOverHttp(appUrl, info, prepared));
  }
  if (SECTIONS.has("soak")) {
    // A fresh server with a capped old space, so a heap that only grows because it may shows as flat,
    // and one that leaks fails: the soak's memory is measured from its own start.
    await app.stop();
    await funded.restore();
    const metricsToken = randomBytes(16).toString("hex");
    app = await startNext({
      dir: ROOT,
      port,
      env: {
        ...ourEnv,
        METRICS_TOKEN: metricsToken,
        NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ""} --max-old-space-size=${SOAK_HEAP_MIB}`.trim(),
      },
    });
    serverPid = nextServerPid(app.pid);
    section(
      `Soak: paid x402 submissions at concurrency 32 for ${SOAK_SECONDS} s, heap capped at ${SOAK_HEAP_MIB} MiB, memory sampled`,
    );
    results.soak = await attempt("soak", () => soak(info, feedbackUrl, app, metricsToken));
  }
  await app.stop();
}

try {
  await main();
} finally {
  await cleanup();
  rmSync(tmp, { recursive: true, force: true });
}
process.exit(0);
