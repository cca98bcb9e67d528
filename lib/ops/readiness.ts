import "server-only";
import { HTTPFacilitatorClient } from "@x402/core/server";
import { sql } from "drizzle-orm";
import { createPublicClient, type Hex } from "viem";
import { readContract } from "viem/actions";
import { Abis } from "viem/tempo";
import { unreachableWords } from "@/lib/chain/failures";
import { rpcTransport } from "@/lib/chain/rpc";
import { getDb } from "@/lib/db/client";
import { env } from "@/lib/env";
import { formatUsd } from "@/lib/money";
import { payoutClient } from "@/lib/payment/tempo";
import { TimeoutError, withTimeout } from "@/lib/payment/timeout";
import { secretsDifferingFromLive } from "./instances";

/** Each check's bound: a load balancer waits for /readyz, and a slow chain must not hold it. */
const CHECK_TIMEOUT_MS = 2_000;
/** How long one result answers every caller, so a probe storm costs the chains one check per window. */
const CACHE_MS = 1_500;

/** One check's result: never a URL, a key or a raw error message, only what an operator acts on. */
type Check =
  | { ok: true; latencyMs: number; warning?: string }
  | { ok: false; latencyMs: number; error: string };

/** What this instance can take now, each on its own: one network's outage leaves the others serving. */
type Protocols = {
  /** x402 payments: the EVM chain answers, and the remote facilitator when there is one. */
  x402: boolean;
  /** MPP payments: the Tempo chain answers. */
  mpp: boolean;
  /** Rewards: the Tempo chain answers and the payout wallet holds at least READY_MIN_PAYOUT_BALANCE. */
  rewards: boolean;
};

export type Readiness = {
  /**
   * ready: every check passed. degraded: this instance serves (a 200 for a load balancer), but a protocol is
   * out or a check warns. unavailable: the database cannot be reached, so it can serve nothing (a 503).
   */
  status: "ready" | "degraded" | "unavailable";
  checks: {
    database: Check;
    x402Chain: Check;
    x402Facilitator?: Check;
    tempoChain: Check;
    payoutBalance: Check;
    sharedSecrets: Check;
  };
  protocols: Protocols;
  /** The payout wallet's USDC.e balance in micro-USD when it could be read (for /metrics, not /readyz). */
  payoutBalance: bigint | null;
};

/** An RPC that answers for another chain than the one configured. */
class WrongChain extends Error {}

/** Shared secrets that differ from a live instance's, by variable. */
class SecretsDiffer extends Error {
  constructor(variables: string) {
    super(
      `${variables} differ from the running instances': give every instance the same (npm run doctor names them)`,
    );
  }
}

/** A failure in words that cannot carry a URL or a payload: viem's messages name the RPC URL. */
function reasonOf(error: unknown): string {
  if (error instanceof WrongChain || error instanceof SecretsDiffer) return error.message;
  if (error instanceof TimeoutError) return `no answer within ${CHECK_TIMEOUT_MS} ms`;
  return unreachableWords(error, `no answer within ${CHECK_TIMEOUT_MS} ms`);
}

async function timed(run: () => Promise<string | undefined>): Promise<Check> {
  const started = performance.now();
  const latencyMs = () => Math.round((performance.now() - started) * 10) / 10;
  try {
    const warning = await withTimeout(run(), CHECK_TIMEOUT_MS, "readiness check");
    return { ok: true, latencyMs: latencyMs(), ...(warning ? { warning } : {}) };
  } catch (error) {
    return { ok: false, latencyMs: latencyMs(), error: reasonOf(error) };
  }
}

const clientOf = (url: string) =>
  createPublicClient({ transport: rpcTransport(url, { timeout: CHECK_TIMEOUT_MS, retryCount: 0 }) });

/** The chain answers, with a head, and is the chain configured (a wrong RPC is not ready). */
async function chainCheck(url: string, expectedId: number): Promise<string | undefined> {
  const client = clientOf(url);
  const [id] = await Promise.all([client.getChainId(), client.getBlockNumber({ cacheTime: 0 })]);
  if (id !== expectedId) throw new WrongChain(`chain id ${id}, expected ${expectedId}`);
  return undefined;
}

/** A remote facilitator answers /supported (an in-process one is this process). */
async function facilitatorCheck(url: string): Promise<string | undefined> {
  await new HTTPFacilitatorClient({ url, timeoutMs: CHECK_TIMEOUT_MS }).getSupported();
  return undefined;
}

async function check(): Promise<Readiness> {
  const e = env();
  let payoutBalance: bigint | null = null;
  const facilitatorUrl = e.X402_FACILITATOR_URL;
  const [database, x402Chain, x402Facilitator, tempoChain, balance, secrets] = await Promise.all([
    timed(async () => {
      await (await getDb()).execute(sql`select 1`);
      return undefined;
    }),
    timed(() => chainCheck(e.X402_RPC_URL, Number(e.X402_NETWORK.split(":")[1]))),
    facilitatorUrl ? timed(() => facilitatorCheck(facilitatorUrl)) : undefined,
    timed(() => chainCheck(e.TEMPO_RPC_URL, e.TEMPO_CHAIN_ID)),
    timed(async () => {
      payoutBalance = await readContract(clientOf(e.TEMPO_RPC_URL), {
        address: e.MPP_CURRENCY as Hex,
        abi: Abis.tip20,
        functionName: "balanceOf",
        args: [payoutClient().account.address],
      });
      return payoutBalance < e.READY_MIN_PAYOUT_BALANCE
        ? `below READY_MIN_PAYOUT_BALANCE (${formatUsd(e.READY_MIN_PAYOUT_BALANCE)} USD): rewards may be refused`
        : undefined;
    }),
    timed(async () => {
      // A secret that differs from a running instance's breaks what crosses instances: an MPP challenge from
      // one is refused by the other. Named here, as the doctor names it, with the protocol it takes out.
      const differing = await secretsDifferingFromLive(await getDb(), e);
      if (differing.length) throw new SecretsDiffer(differing.join(", "));
      return undefined;
    }),
  ]);
  const checks = {
    database,
    x402Chain,
    ...(x402Facilitator ? { x402Facilitator } : {}),
    tempoChain,
    payoutBalance: balance,
    sharedSecrets: secrets,
  };
  const mppSecretDiffers = !secrets.ok && secrets.error.includes("MPP_SECRET_KEY");
  const protocols: Protocols = {
    x402: x402Chain.ok && (x402Facilitator?.ok ?? true),
    mpp: tempoChain.ok && !mppSecretDiffers,
    rewards: tempoChain.ok && balance.ok && !balance.warning,
  };
  const all: Check[] = Object.values(checks);
  const status = !database.ok ? "unavailable" : all.some((c) => !c.ok || c.warning) ? "degraded" : "ready";
  return { status, checks, protocols, payoutBalance };
}

// One cache per process (see lib/http/metrics.ts on route bundles): callers share a running check, and
// its result for CACHE_MS after it ends.
const store = globalThis as unknown as {
  __feedbackReadiness?: { endedAt: number; result: Promise<Readiness> };
};

/**
 * Whether this instance can serve now, and which protocols it can take: the database decides whether it
 * serves at all; each chain (and a remote facilitator) only its own protocol, so an orchestrator never takes
 * every instance out of rotation for one network's outage that every instance shares.
 */
export function readiness(): Promise<Readiness> {
  const cached = store.__feedbackReadiness;
  if (cached && performance.now() - cached.endedAt < CACHE_MS) return cached.result;
  const entry = { endedAt: Number.POSITIVE_INFINITY, result: check() };
  const ended = () => {
    entry.endedAt = performance.now();
  };
  entry.result.then(ended, ended);
  store.__feedbackReadiness = entry;
  return entry.result;
}
