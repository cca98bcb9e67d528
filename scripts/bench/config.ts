/**
 * The bench's settings, each read once here for the runner and its in-process children alike. The knobs a
 * user turns (BENCH_*) are tabled in docs/benchmarks.md; the rest are the method's fixed sizes.
 */
import path from "node:path";

export const ROOT = path.resolve(import.meta.dirname, "../..");
export const QUICK = process.env.BENCH_QUICK === "1";

function env(name: string, full: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return full;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < 0) throw new Error(`${name} must be a non-negative number, got "${raw}"`);
  return n;
}
const list = (name: string, full: string) => (process.env[name] || full).split(",").map(Number);
/** The full run's value, or the smoke run's under BENCH_QUICK=1. */
const size = (full: number, quick: number) => (QUICK ? quick : full);

const ALL = "alike,x402,ceiling,open,mpp,inbox,siwx,soak,phases,baseline,instances";
export const SECTIONS = (process.env.BENCH_SECTIONS || ALL).split(",");
export const DATABASE_URL = process.env.DATABASE_URL || undefined;
export const DEFAULT_OUT = "scripts/bench/results/latest.json";
// A smoke run leaves the committed results alone: it writes quick.json and quick.md (both ignored by git).
const QUICK_OUT = "scripts/bench/results/quick.json";
export const OUT = path.resolve(ROOT, process.env.BENCH_OUT || (QUICK ? QUICK_OUT : DEFAULT_OUT));
export const DIST_DIR = ".next-bench";
export const SKIP_BUILD = process.env.BENCH_SKIP_BUILD === "1";
/** Every `next start` writes a V8 CPU profile into this folder when it stops. */
export const CPU_PROF = process.env.BENCH_CPU_PROF;

export const config = {
  concurrency: list("BENCH_CONCURRENCY", "1,8,32"),
  /** Paid calls per level: max(40, c × 12); quick max(20, c × 2). */
  requestsFor: (c: number) => Math.max(size(40, 20), c * size(12, 2)),
  // Ours and its anchor alternate this many times per level (machine noise is ±10% run to run).
  repeats: Math.max(1, env("BENCH_REPEATS", size(3, 1))),
  // Untimed paid calls before a fresh server's first timed run: 32 were not enough, a profile showed V8's
  // compiler and collector threads still busy through the next 100 or so.
  warmup: size(200, 8),
  ceilingWarmup: size(32, 8),
  idleSeconds: size(30, 10),
  openX402Requests: size(240, 30),
  openMppRequests: size(120, 20),
  floorSamples: 200,
  floorCpuCalls: 1000,
  inboxNsRows: env("BENCH_INBOX_NS_ROWS", size(1_000_000, 10_000)),
  inboxTotalRows: env("BENCH_INBOX_TOTAL_ROWS", size(2_000_000, 50_000)),
  deepFraction: 0.9,
  listSamples: size(30, 10),
  siwxProofs: size(300, 50),
  phasesRequests: size(40, 10),
  phasesConcurrency: [1, 8],
  soakSeconds: env("BENCH_SOAK_SECONDS", size(600, 15)),
  soakHeapMiB: 256,
  instances: list("BENCH_INSTANCES", "1,2,4"),
  instancesConcurrency: 32,
  instancesRequests: size(384, 64),
  costCalls: size(10, 4),
  costIdleMs: size(12_000, 6_000),
};
