/**
 * `npm run bench`: each section in turn (its knobs in docs/benchmarks.md), the results JSON, BENCHMARKS.md.
 * alike → devnet → `next build` → in-process (inbox, siwx, phases) → `next start`: x402 with the baseline and
 * the ceiling, idle, open loop, MPP, inbox over HTTP, soak → instances.
 */
import { randomBytes } from "node:crypto";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { freePort } from "../devnet/anvil";
import { devnetAppEnv } from "../devnet/app-env";
import { type DevnetInfo, startDevnet } from "../devnet/start-devnet";
import { mppBaseline, x402Baseline } from "./baseline";
import { config, DATABASE_URL, DEFAULT_OUT, DIST_DIR, OUT, QUICK, ROOT, SECTIONS } from "./config";
import { httpFloor, inboxOverHttp } from "./inbox";
import { benchInstances } from "./instances";
import { attempt } from "./load";
import { machineInfo, nextServerPid, rssKiB } from "./machine";
import { type MppTarget, mppLevels } from "./mpp";
import { x402OpenLoop } from "./open-loop";
import type { RawLevel } from "./paid";
import { type Results, renderReport } from "./report";
import { buildApp, runInProcessChild, startNext } from "./servers";
import { soak } from "./soak";
import { type ChainPoint, chainPoint, idleCpu, type X402Target, x402Levels } from "./x402";

const results = {} as Results;
const stops: Array<() => Promise<void>> = [];
const tmp = path.join(os.tmpdir(), `feedback-bench-${process.pid}`);
mkdirSync(tmp, { recursive: true });
const on = (...sections: string[]) => sections.some((s) => SECTIONS.includes(s));
/** Runs one section; its figures, or how it failed, go into the results under its name. */
async function measure<K extends keyof Results>(key: K, fn: () => Promise<unknown>) {
  console.log(`\n▶ ${key}`);
  results[key] = (await attempt(key, fn)) as Results[K];
}
process.on("SIGINT", () => void cleanup().then(() => process.exit(130)));
async function cleanup() {
  for (const stop of stops.splice(0).reverse()) await stop().catch(() => {});
}

async function main() {
  console.log(
    `Benchmark on ${DATABASE_URL ? "PostgreSQL (DATABASE_URL)" : "embedded PGlite"}${QUICK ? ", quick" : ""}`,
  );
  const requestsPerLevel = Object.fromEntries(config.concurrency.map((c) => [c, config.requestsFor(c)]));
  Object.assign(results, {
    startedAt: new Date().toISOString(),
    database: DATABASE_URL ? "postgres" : "pglite",
  });
  results.machine = machineInfo(DATABASE_URL);
  results.config = { quick: QUICK, sections: SECTIONS, requestsPerLevel, ...config };
  const alikeEnv: Record<string, string> = DATABASE_URL ? { DATABASE_URL } : {};
  if (on("alike")) await measure("alike", () => runInProcessChild("alike.ts", [], alikeEnv, tmp));
  console.log("\n▶ devnet, then the production build (next build → .next-bench)");
  const port = await freePort();
  const devnet = await startDevnet({ appUrl: `http://127.0.0.1:${port}` });
  stops.push(() => devnet.stop());
  const info = devnet.info;
  const funded = await chainPoint(info.x402.rpcUrl); // each x402 run and the soak start from here
  const env = devnetAppEnv(info, { databaseUrl: DATABASE_URL, pgliteDir: path.join(tmp, "pglite") });
  const childEnv = { ...env, NEXT_DIST_DIR: DIST_DIR, BENCH_DEVNET: JSON.stringify(info) };
  const inProcess = <T>(args: string[], key = env.X402_FACILITATOR_PRIVATE_KEY!) =>
    runInProcessChild<T>("in-process.ts", args, { ...childEnv, X402_FACILITATOR_PRIVATE_KEY: key }, tmp);
  results.build = buildApp();
  // Ours, the baseline, the ceiling and the phases each settle from a key of their own: no nonce clashes.
  const keys = env.X402_FACILITATOR_PRIVATE_KEY!.split(",");
  // In-process, before `next start`: on PGlite the database belongs to one process.
  const modes = ["inbox", "siwx"].filter((s) => on(s)).join(",");
  if (modes) await measure("prepared", () => inProcess([modes]));
  if (on("phases")) await measure("phases", () => inProcess(["phases"], keys[3]));
  if (on("x402", "ceiling", "baseline", "mpp", "inbox", "soak"))
    await oneServer({ info, env, keys, port, funded, inProcess });
  const skipped = { skipped: "needs DATABASE_URL: an embedded database (PGlite) belongs to one process" };
  if (on("instances"))
    await measure("instances", async () => (DATABASE_URL ? benchInstances(DATABASE_URL) : skipped));
  results.finishedAt = new Date().toISOString();
  results.loadAverageAtEnd = os.loadavg().map((x) => Math.round(x * 100) / 100);
  mkdirSync(path.dirname(OUT), { recursive: true });
  writeFileSync(OUT, `${JSON.stringify(results, null, 2)}\n`);
  // Only the default results become BENCHMARKS.md; any other run's report goes beside its JSON.
  const md = OUT === path.resolve(ROOT, DEFAULT_OUT) ? "BENCHMARKS.md" : OUT.replace(/(\.json)?$/, ".md");
  console.log(`\n${renderReport(results, OUT, path.resolve(ROOT, md))}\n\nResults: ${OUT}, report: ${md}`);
}

type Run = {
  info: DevnetInfo;
  env: Record<string, string>;
  keys: string[];
  port: number;
  funded: ChainPoint;
};
type InProcess = <T>(args: string[], key?: string) => Promise<T>;

/** The sections measured against one `next start` of ours, each anchor started beside it in turn. */
async function oneServer({ info, env, keys, port, funded, inProcess }: Run & { inProcess: InProcess }) {
  console.log("\n▶ next start");
  const ourEnv = { ...env, NEXT_DIST_DIR: DIST_DIR, X402_FACILITATOR_PRIVATE_KEY: keys[0]! };
  let app = await startNext(ROOT, port, ourEnv);
  stops.push(() => app.stop());
  const ours = () => ({ url: `${app.url}/healthz`, pid: nextServerPid(app.pid) });
  results.rssAfterStartMiB = Math.round((rssKiB(ours().pid) ?? 0) / 102.4) / 10;
  const url = `${app.url}/api/namespace/feedback`;
  const restart = async () => {
    await app.stop();
    app = await startNext(ROOT, port, ourEnv);
    x402.pid = ours().pid;
  };
  const x402: X402Target = { key: "x402", url, label: "x402", pid: ours().pid, restart };
  const targets = on("x402") ? [x402] : [];
  const base = on("baseline") ? await x402Baseline(env, keys[1]!, tmp) : undefined;
  if (base) {
    stops.push(base.stop);
    targets.push(base.target);
    await measure("httpFloor", async () => {
      const floors = await httpFloor({ ours: ours(), bare: base.ping });
      results.httpFloorBare = floors.bare;
      return floors.ours;
    });
  }
  const ceiling = (c: number) => {
    const options = {
      key: keys[2],
      concurrency: c,
      count: config.requestsFor(c),
      warmup: config.ceilingWarmup,
    };
    return inProcess<RawLevel>(["ceiling", JSON.stringify(options)]);
  };
  if (targets.length || on("ceiling")) {
    console.log("\n▶ x402: ours, the withX402 baseline and the ceiling, level by level");
    const levels = await x402Levels(info, targets, funded, on("ceiling") ? ceiling : undefined);
    Object.assign(results, levels);
    if (on("x402")) await measure("idle", () => idleCpu(info, x402, funded));
    if (on("open") && targets.length)
      await measure("x402Open", () => x402OpenLoop(info, targets, levels, funded));
  }
  await base?.stop();
  if (on("mpp")) {
    const mppx = on("baseline") ? await mppBaseline(env, tmp) : undefined;
    if (mppx) stops.push(mppx.stop);
    const mppTargets: MppTarget[] = [
      { key: "mpp", url, label: "MPP", pid: ours().pid },
      ...(mppx ? [mppx.target] : []),
    ];
    await measure("mpp", async () => {
      const { mpp, ...rest } = await mppLevels(info, mppTargets, on("open"));
      Object.assign(results, rest);
      return mpp;
    });
    await mppx?.stop();
  }
  const prepared = results.prepared && "inbox" in results.prepared ? results.prepared.inbox : undefined;
  if (on("inbox") && prepared) {
    // The floor beside bare Next.js when the baseline ran; here, ours alone otherwise.
    if (!results.httpFloor) await measure("httpFloor", async () => (await httpFloor({ ours: ours() })).ours);
    await measure("inboxHttp", () => inboxOverHttp(app.url, info, prepared));
  }
  if (on("soak")) {
    // A fresh server with its old space capped: a heap that only grows because it may shows as flat.
    await app.stop();
    await funded.restore();
    const token = randomBytes(16).toString("hex");
    const heap = `${process.env.NODE_OPTIONS ?? ""} --max-old-space-size=${config.soakHeapMiB}`.trim();
    app = await startNext(ROOT, port, { ...ourEnv, METRICS_TOKEN: token, NODE_OPTIONS: heap });
    await measure("soak", () => soak(info, url, app, token));
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
