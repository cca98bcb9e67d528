/** The x402 section: ours beside the `withX402` baseline and the ceiling, level by level; then ours idle. */
import type { DevnetInfo } from "../devnet/start-devnet";
import { config } from "./config";
import { attempt, type Failed, now, sleep } from "./load";
import { type CpuShares, cpuMeter } from "./machine";
import type { PaidLevel, RawLevel } from "./paid";
import { ask402, feedbackBody, paidLevel, pooled, printLevel, x402Payers } from "./paid";

/** A server of the section; `restart` starts it afresh (nonce cache and clients new) and sets `pid`. */
export type X402Target = { key: "x402" | "baseline"; label: string } & Server;
type Server = { url: string; pid: number; restart: () => Promise<void> };
type Payers = ReturnType<typeof x402Payers>;
export type Levels = PaidLevel[] | Failed;

/** A point on anvil's chain to come back to: anvil slows as payments pile up (105 to 43 req/s over 3,800). */
export async function chainPoint(rpcUrl: string) {
  const rpc = async <T>(method: string, params: unknown[] = []) => {
    const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method, params });
    const res = await fetch(rpcUrl, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body,
    });
    const answer = (await res.json()) as { result?: T; error?: { message: string } };
    if (answer.result === undefined)
      throw new Error(`${method}: ${answer.error?.message ?? `HTTP ${res.status}`}`);
    return answer.result;
  };
  let id = await rpc<string>("evm_snapshot");
  const restore = async () => {
    if (!(await rpc<boolean>("evm_revert", [id]))) throw new Error(`evm_revert: snapshot ${id} unknown`);
    // A transaction left in the pool holds a nonce of the old state: its successor might never be mined.
    await rpc("anvil_dropAllTransactions");
    id = await rpc<string>("evm_snapshot"); // anvil forgets a snapshot once reverted to
  };
  return { restore };
}
export type ChainPoint = Awaited<ReturnType<typeof chainPoint>>;

/** The 402's PAYMENT-REQUIRED header of `url` (static, so a client caches it), and its round trip. */
export async function x402Challenge(url: string, i: number) {
  const { res, ms } = await ask402(url, feedbackBody(i, "x402"));
  return { required: res.headers.get("payment-required") ?? "", ms };
}

/** One level: the 402 timed 5 times, every payment signed before the clock (no CPU taken from the server). */
async function x402Level(payers: Payers, target: X402Target, c: number, count: number): Promise<RawLevel> {
  const [challengeMs, signMs, signatures]: [number[], number[], string[]] = [[], [], []];
  let required = "";
  for (let k = 0; k < 5; k++) ({ required, ms: challengeMs[k]! } = await x402Challenge(target.url, k));
  for (let i = 0; i < count; i++) {
    const t0 = now();
    signatures.push(await payers[i % payers.length]!.sign(required));
    signMs.push(now() - t0);
  }
  const level = await paidLevel(target, c, count, "x402", async (i) => ({
    headers: { "payment-signature": signatures[i]! },
  }));
  return { ...level, challengeMs, signMs };
}

/** A fresh server on the funded chain, after its untimed warm-up: `config.warmup` paid calls at c=8. */
export async function freshServer(payers: Payers, target: X402Target, chain: ChainPoint, strict = true) {
  await chain.restore();
  await target.restart();
  const warm = config.warmup ? await x402Level(payers, target, 8, config.warmup) : undefined;
  if (strict && warm?.errors) throw new Error(`warm-up failed: ${warm.errorSamples[0]}`);
}

/**
 * Each level BENCH_REPEATS times, alternating which target goes first, the ceiling after them; every run on
 * the chain as funded and a fresh, warmed-up server. Repeats are pooled; a failed target sits out the rest.
 */
type Ceiling = (c: number) => Promise<RawLevel>;
export async function x402Levels(info: DevnetInfo, targets: X402Target[], at: ChainPoint, ceiling?: Ceiling) {
  const payers = x402Payers(info);
  const ceilings: Array<PaidLevel | (Failed & { concurrency: number })> = [];
  const out: { x402?: Levels; baseline?: Levels; ceiling?: typeof ceilings } = ceiling
    ? { ceiling: ceilings }
    : {};
  const failed = (key: X402Target["key"]) => out[key] !== undefined && !Array.isArray(out[key]);
  for (const c of config.concurrency) {
    const runs: Record<"x402" | "baseline" | "ceiling", RawLevel[]> = { x402: [], baseline: [], ceiling: [] };
    for (let r = 0; r < config.repeats; r++) {
      for (const t of (r % 2 ? [...targets].reverse() : targets).filter((t) => !failed(t.key))) {
        const raw = await attempt(`${t.label} c=${c}`, async () => {
          await freshServer(payers, t, at);
          return x402Level(payers, t, c, config.requestsFor(c));
        });
        if ("error" in raw) out[t.key] = raw;
        else runs[t.key].push(raw);
      }
      const run = ceiling && (await attempt(`ceiling c=${c}`, () => at.restore().then(() => ceiling(c))));
      if (run && "error" in run) ceilings.push({ concurrency: c, ...run });
      else if (run) runs.ceiling.push(run);
    }
    for (const key of ["ceiling", "x402", "baseline"] as const) {
      if (!runs[key].length || (key !== "ceiling" && failed(key))) continue;
      const level = pooled(runs[key]);
      printLevel(`${key} c=${c}`, level);
      if (key === "ceiling") ceilings.push(level);
      else out[key] = [...((out[key] as PaidLevel[] | undefined) ?? []), level];
    }
  }
  return out;
}

/** A warmed server's CPU with no traffic: a constant cost's share of each call grows as the rate falls. */
export async function idleCpu(info: DevnetInfo, target: X402Target, chain: ChainPoint) {
  await freshServer(x402Payers(info), target, chain);
  await sleep(1000);
  const meter = cpuMeter(target.pid);
  await sleep(config.idleSeconds * 1000);
  const { machineMs, elapsedMs, shares } = meter();
  const perSecond = (ms: number) => Math.round((ms / (elapsedMs / 1000)) * 10) / 10;
  const msPerSecond = Object.fromEntries(
    Object.entries(shares).map(([k, v]) => [k, perSecond(v)]),
  ) as CpuShares;
  return {
    seconds: Math.round(elapsedMs / 1000),
    warmupCalls: config.warmup,
    machineMsPerSecond: perSecond(machineMs),
    msPerSecond,
  };
}
