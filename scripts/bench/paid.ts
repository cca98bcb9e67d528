/** One level of paid submissions against one server, and the pooling of a level's repeats. */
import os from "node:os";
import { parseServerTiming } from "../../lib/http/server-timing";
import { devnetX402Payer } from "../clients/x402-payer";
import type { DevnetInfo } from "../devnet/start-devnet";
import { closedLoop, keepAliveAgent, type LoadResult, now, type Summary, send, summarize } from "./load";
import { type CpuShares, cpuMeter } from "./machine";

/** A feedback body unique per request (the service stores each). */
export const feedbackBody = (i: number, protocol: string) =>
  `{"namespace":"bench-paid","type":"bug","title":"Benchmark ${protocol} submission ${i}","description":"A paid submission sent by npm run bench to measure end-to-end latency.","severity":"low"}`;
export const x402Payers = (info: DevnetInfo) => info.accounts.map((_, i) => devnetX402Payer(info, i));

/** The answer an unpaid POST got instead of its 402, with its body (a shed call's 503 `service-busy`, say). */
export class Not402 extends Error {
  constructor(
    readonly status: number,
    readonly text: string,
  ) {
    super(`expected a 402 challenge, got ${status}`);
  }
}

/** An unpaid POST of `body` to `url`: its 402 (body read, or with `keep` a copy) and how long it took. */
export async function ask402(url: string, body: string, keep = false) {
  const t0 = now();
  const res = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body });
  if (res.status !== 402) throw new Not402(res.status, await res.text());
  await (keep ? res.clone() : res).arrayBuffer();
  return { res, ms: now() - t0 };
}

type Samples = {
  latencies: number[];
  challengeMs: number[];
  signMs: number[];
  serverMs: Record<string, number[]>;
};
/** One run of a level, unsummarized, so repeats of it can be pooled. */
export type RawLevel = Omit<LoadResult, "rps" | "latency"> &
  Samples & { cpu: ReturnType<ReturnType<typeof cpuMeter>> };
type PerCall = {
  serverMsPerCall: number;
  machineMsPerCall: number;
  machineBusyPercent?: number;
  sharesPerCall?: CpuShares;
};
/** A pooled level: the 402's round trip and the signing, the server's phases (Server-Timing), CPU per call. */
export type PaidLevel = LoadResult & {
  challenge?: Summary;
  sign?: Summary;
  server?: Record<string, Summary>;
} & {
  cpu?: PerCall;
  repeats?: Array<{ p50: number; rps: number }>;
};
export type Target = { url: string; pid: number };
type Prepare = (i: number) => Promise<{ headers: Record<string, string>; challengeMs?: number }>;

/** A closed loop of paid calls at concurrency `c`, each payment prepared (402 and signing timed apart) first. */
export async function paidLevel(t: Target, c: number, count: number, protocol: string, prepare: Prepare) {
  const s: Samples = { latencies: [], challengeMs: [], signMs: [], serverMs: {} };
  const [cpu, agent] = [cpuMeter(t.pid), keepAliveAgent()];
  const load = await closedLoop(count, c, async (i, startClock) => {
    const t0 = now();
    const paid = await prepare(i);
    s.challengeMs.push(paid.challengeMs ?? 0);
    s.signMs.push(now() - t0 - (paid.challengeMs ?? 0));
    startClock();
    const t1 = now();
    const res = await send(agent, t.url, paid.headers, feedbackBody(i, protocol));
    if (res.status !== 200 && res.status !== 201) return `${res.status} ${res.text.slice(0, 300)}`;
    s.latencies.push(now() - t1);
    const timing = [res.headers["server-timing"] ?? []].flat().join(", ");
    for (const [phase, ms] of Object.entries(parseServerTiming(timing || null)))
      s.serverMs[phase] = [...(s.serverMs[phase] ?? []), ms];
    return null;
  });
  agent.destroy();
  const { rps: _, latency: __, ...counts } = load;
  return { ...counts, ...s, cpu: cpu() } satisfies RawLevel;
}

const round1 = (x: number) => Math.round(x * 10) / 10;
const rpsOf = (ok: number, ms: number) => Math.round((ok / (ms / 1000)) * 100) / 100;

/** Pools one or more runs of a level: samples merged, req/s as calls over summed wall time. */
export function pooled(runs: RawLevel[]): PaidLevel {
  const sum = (f: (r: RawLevel) => number) => runs.reduce((a, r) => a + f(r), 0);
  const all = (f: (r: RawLevel) => number[]) => summarize(runs.flatMap(f));
  const [ok, wallMs, machineMs] = [sum((r) => r.ok), sum((r) => r.wallMs), sum((r) => r.cpu.machineMs)];
  const perCall = (f: (r: RawLevel) => number) => round1(sum(f) / Math.max(1, ok));
  const keys = ["server", "postgres", "anvil", "loadGenerator", "rest"] as const;
  const sharesPerCall = Object.fromEntries(
    keys.map((k) => [k, perCall((r) => r.cpu.shares[k])]),
  ) as CpuShares;
  const machineBusyPercent = Math.round((machineMs / (sum((r) => r.cpu.elapsedMs) * os.cpus().length)) * 100);
  const cpu = {
    serverMsPerCall: perCall((r) => r.cpu.serverMs),
    machineMsPerCall: perCall((r) => r.cpu.machineMs),
  };
  const phases = [...new Set(runs.flatMap((r) => Object.keys(r.serverMs)))];
  const server = Object.fromEntries(phases.map((p) => [p, all((r) => r.serverMs[p] ?? [])]));
  const repeats = runs.map((r) => ({ p50: summarize(r.latencies).p50, rps: rpsOf(r.ok, r.wallMs) }));
  const errorSamples = runs.flatMap((r) => r.errorSamples).slice(0, 5);
  const counts = {
    concurrency: runs[0]!.concurrency,
    requests: sum((r) => r.requests),
    ok,
    errors: sum((r) => r.errors),
  };
  return {
    ...{ ...counts, errorSamples, wallMs, rps: rpsOf(ok, wallMs), latency: all((r) => r.latencies) },
    ...(runs.some((r) => r.challengeMs.length)
      ? { challenge: all((r) => r.challengeMs), sign: all((r) => r.signMs) }
      : {}),
    ...(phases.length ? { server } : {}),
    cpu: { ...cpu, machineBusyPercent, sharesPerCall },
    ...(runs.length > 1 ? { repeats } : {}),
  };
}

export function printLevel(label: string, l: PaidLevel) {
  const errors = l.errors ? `, ${l.errors} errors: ${l.errorSamples[0]}` : "";
  console.log(
    `  ${label.padEnd(16)} ${l.ok}/${l.requests} ok, ${l.rps} req/s, p50 ${l.latency.p50} ms${errors}`,
  );
}
