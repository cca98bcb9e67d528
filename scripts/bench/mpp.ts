/** The MPP section: ours beside mppx's own Next.js handler, each call with its own 402 and credential. */
import { createMppFetch } from "../clients/mpp-payer";
import type { DevnetInfo } from "../devnet/start-devnet";
import { config } from "./config";
import { type OpenResult, openRate, runOpen } from "./open-loop";
import { ask402, feedbackBody, type PaidLevel, paidLevel, pooled, printLevel, type RawLevel } from "./paid";

export type MppTarget = { key: "mpp" | "mppBaseline"; url: string; label: string; pid: number };

/**
 * The same warm-up for both, then they alternate level by level. The highest level runs BENCH_REPEATS times:
 * one run lasts about 13 s of Tempo's one-second blocks, so one block more moves its rate by percents.
 */
export async function mppLevels(info: DevnetInfo, targets: MppTarget[], openLoop: boolean) {
  const clients = info.accounts.map((a) => createMppFetch(info.tempo, a.privateKey, fetch));
  const credential = async (url: string, i: number, protocol: string) => {
    const { res, ms } = await ask402(url, feedbackBody(i, protocol), true);
    const authorization = await clients[i % clients.length]!.createCredential(res);
    return { headers: { authorization }, challengeMs: ms };
  };
  const level = (t: MppTarget, c: number, count: number) =>
    paidLevel(t, c, count, "mpp", (i) => credential(t.url, i, "mpp"));
  const out: { mpp?: PaidLevel[]; mppBaseline?: PaidLevel[]; mppOpen?: OpenResult[] } = {};
  for (const t of config.warmup ? targets : []) await level(t, 8, Math.min(config.warmup, 16));
  for (const [k, c] of config.concurrency.entries()) {
    const runs = new Map<string, RawLevel[]>(targets.map((t) => [t.key, []]));
    for (let r = 0; r < (c === config.concurrency.at(-1) ? config.repeats : 1); r++) {
      for (const t of (k + r) % 2 ? [...targets].reverse() : targets) {
        runs.get(t.key)!.push(await level(t, c, config.requestsFor(c)));
      }
    }
    for (const t of targets) {
      out[t.key] = [...(out[t.key] ?? []), pooled(runs.get(t.key)!)];
      printLevel(`${t.label} c=${c}`, out[t.key]!.at(-1)!);
    }
  }
  if (!openLoop) return out;
  console.log("\n▶ Paid submissions over MPP at a fixed arrival rate (open loop)");
  const rate = openRate(targets.map((t) => out[t.key]));
  out.mppOpen = [];
  for (const t of targets) {
    // Each call's 402 and credential are made before the clock: only the paid calls arrive at the rate.
    const payments = [];
    for (let i = 0; i < config.openMppRequests; i++)
      payments.push((await credential(t.url, i, "mpp-open")).headers);
    out.mppOpen.push(await runOpen(t, rate, payments, "mpp-open"));
  }
  return out;
}
