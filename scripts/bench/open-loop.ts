/** The open-loop section: the same payments at a fixed arrival rate, latency untied from the answers' pace. */
import { X402_MAX_TIMEOUT_SECONDS } from "../../lib/payment/x402-credential";
import type { DevnetInfo } from "../devnet/start-devnet";
import { config } from "./config";
import { type Failed, keepAliveAgent, medianRps, openLoop, send } from "./load";
import { feedbackBody, type PaidLevel, x402Payers } from "./paid";
import { type ChainPoint, freshServer, type Levels, type X402Target, x402Challenge } from "./x402";

export type OpenResult = Awaited<ReturnType<typeof runOpen>>;

/** 60% of the slowest target's top closed-loop rate (its median repeat): every target keeps up. */
export function openRate(levels: Array<PaidLevel[] | Failed | undefined>) {
  const top = levels.map((l) => (Array.isArray(l) ? (medianRps(l.at(-1)) ?? 0) : 0)).filter((r) => r > 0);
  return top.length ? Math.max(1, Math.round(Math.min(...top) * 0.6 * 10) / 10) : 5;
}

/** Payments prepared before the clock, sent to `t` at `rate`: only the paid calls run on the clock. */
type Target = { key: string; label: string; url: string };
export async function runOpen(t: Target, rate: number, payments: Array<Record<string, string>>, tag: string) {
  const agent = keepAliveAgent();
  const load = await openLoop(payments.length, rate, async (i) => {
    const res = await send(agent, t.url, payments[i]!, feedbackBody(i, tag));
    return res.status === 200 || res.status === 201 ? null : `${res.status} ${res.text.slice(0, 300)}`;
  });
  agent.destroy();
  console.log(
    `  ${t.label.padEnd(16)} ${load.ok}/${load.requests} ok at ${rate}/s  p50 ${load.latency.p50} ms  p99 ${load.latency.p99} ms`,
  );
  return { key: t.key, label: t.label, ...load };
}

// Payments signed before the clock expire after the 402's maxTimeoutSeconds: a run keeps 20 s inside that.
const OPEN_X402_SECONDS = X402_MAX_TIMEOUT_SECONDS - 20;

/** x402 at a fixed rate against each target in turn, each on the funded chain and a fresh, warmed-up server. */
type Closed = { x402?: Levels; baseline?: Levels };
export async function x402OpenLoop(info: DevnetInfo, targets: X402Target[], levels: Closed, at: ChainPoint) {
  const payers = x402Payers(info);
  const rate = openRate(targets.map((t) => levels[t.key]));
  const count = Math.min(config.openX402Requests, Math.max(1, Math.floor(rate * OPEN_X402_SECONDS)));
  const out = [];
  for (const t of targets) {
    await freshServer(payers, t, at, false);
    const { required } = await x402Challenge(t.url, 0);
    const sign = (_: unknown, i: number) => payers[i % payers.length]!.sign(required);
    const signatures = await Promise.all(Array.from({ length: count }, sign));
    out.push(
      await runOpen(
        t,
        rate,
        signatures.map((s) => ({ "payment-signature": s })),
        "x402-open",
      ),
    );
  }
  return out;
}
