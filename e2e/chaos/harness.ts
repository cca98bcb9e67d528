import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { freePort } from "../../scripts/devnet/anvil";
import { devnetAppEnv } from "../../scripts/devnet/app-env";
import { startDevnet } from "../../scripts/devnet/start-devnet";
import { type FaultPolicy, PASS, startRpcProxy } from "../../testing/rpc-proxy";
import { distinctTitle } from "../../testing/titles";
import { type AppInstance, appInstance } from "./apps";
import { openLedger } from "./ledger-reader";
import { type Reconciliation, reconcile } from "./reconcile";
import { type Logical, paidCall, type Tally, type Target, wallet } from "./workload";

export type ChaosOptions = {
  /** How long agents pay while the network fails and the app is killed. */
  seconds: number;
  /** App instances on one database (PGlite allows one). */
  instances: number;
  /** PostgreSQL server to make a database of the run's own on; the embedded database when absent. */
  databaseUrl?: string;
  /** Milliseconds between kill -9s of a random instance, drawn from [min, max]. */
  killEvery: [number, number];
  /** Scales the fault table (1: about one RPC call in ten fails some way). */
  faultRate: number;
  /** How long reconciliation may take after the storm before open claims count as failures. */
  settleSeconds: number;
  seed?: number;
  log?: (line: string) => void;
};

export type ChaosReport = {
  seconds: number;
  instances: number;
  database: string;
  requests: {
    logical: number;
    byKind: Record<string, number>;
    byOutcome: Record<string, number>;
    attempts: number;
    answers: Record<string, number>;
  };
  kills: number;
  faults: { evm: Record<string, number>; tempo: Record<string, number>; rpcCalls: number };
  reconciliation: Reconciliation;
  anomalies: string[];
  settledAfterSeconds: number;
};

/** A small deterministic PRNG: a run's faults follow its seed. */
function random(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The bad network: sends cut after they reached the chain, receipts lost, calls refused, dropped, late. */
function faults(rng: () => number, rate: number): FaultPolicy {
  return ({ method }) => {
    const r = rng() / rate;
    if (method.startsWith("eth_sendRawTransaction")) {
      if (r < 0.08) return { kind: "cut-after-forward" };
      if (r < 0.11) return { kind: "cut" };
      if (r < 0.14) return { kind: "delay", ms: 2_000 };
    } else if (method === "eth_getTransactionReceipt") {
      if (r < 0.05) return { kind: "http-500" };
      if (r < 0.08) return { kind: "http-429" };
      if (r < 0.11) return { kind: "delay", ms: 500 + Math.floor(rng() * 2_500) };
    } else {
      if (r < 0.02) return { kind: "http-500" };
      if (r < 0.04) return { kind: "http-429" };
      if (r < 0.05) return { kind: "drop" };
      if (r < 0.08) return { kind: "delay", ms: 300 + Math.floor(rng() * 2_200) };
    }
    return { kind: "pass" };
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Paid submissions (x402 and MPP) and rewarded resolves against `next start` on a devnet, through RPC
 * proxies that fail in every way a network does, while instances are killed with SIGKILL; then
 * reconciliation, then the ledger reconciled against the chains and against what the agents asked.
 */
export async function runChaos(options: ChaosOptions): Promise<ChaosReport> {
  const log = options.log ?? (() => {});
  const rng = random(options.seed ?? Date.now());
  const ports = await Promise.all(Array.from({ length: options.instances }, () => freePort()));
  // One public origin, as behind a load balancer: proofs and challenges bind to it, any instance serves.
  const origin = `http://localhost:${ports[0]}`;
  const devnet = await startDevnet({ appUrl: origin });
  const evmProxy = await startRpcProxy(devnet.info.x402.rpcUrl);
  const tempoProxy = await startRpcProxy(devnet.info.tempo.rpcUrl);
  const ledger = await openLedger(options.databaseUrl, await mkdtemp(path.join(tmpdir(), "chaos-")));
  // A real chain makes blocks whether or not we send anything; anvil's automine makes one per transaction.
  const ticker = setInterval(() => {
    void fetch(devnet.info.x402.rpcUrl, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "evm_mine", params: [] }),
    }).catch(() => {});
  }, 2_000);
  const env = {
    ...devnetAppEnv(devnet.info, ledger.appEnv),
    // Whatever the suite itself runs on, the app uses the run's own database.
    DATABASE_URL: ledger.appEnv.databaseUrl ?? "",
    X402_RPC_URL: evmProxy.url,
    TEMPO_RPC_URL: tempoProxy.url,
    X402_TIMEOUT_MS: "5000",
    RECOVERY_INTERVAL_MS: "1000",
  };
  const apps: AppInstance[] = ports.map((port) => appInstance(port, env, log));
  const target: Target = {
    pick: () => {
      const up = apps.filter((a) => a.alive());
      return up.length ? up[Math.floor(Math.random() * up.length)]!.url : null;
    },
  };
  const tally: Tally = { attempts: 0, anomalies: [], answers: {} };
  const logical: Logical[] = [];
  let kills = 0;
  try {
    for (const app of apps) await app.start();
    const [a1, a2, a3, m1, m2, ownerAccount] = devnet.info.accounts;
    const owner = wallet(devnet.info, ownerAccount!.privateKey);
    const namespace = `chaos-${Math.floor(rng() * 1e9).toString(36)}`;
    const registered = await paidCall(
      target,
      tally,
      {
        kind: "register",
        protocol: "x402",
        path: "/api/namespace/register",
        body: { namespace },
        payer: owner,
      },
      Date.now() + 60_000,
    );
    logical.push(registered);
    if (registered.outcome !== "stored")
      throw new Error(`could not register ${namespace}: ${tally.anomalies.join("; ")}`);

    const until = Date.now() + options.seconds * 1000;
    const giveUpAt = until + 150_000;
    evmProxy.setPolicy(faults(rng, options.faultRate));
    tempoProxy.setPolicy(faults(rng, options.faultRate));
    const items: string[] = [];
    const agent = async (account: (typeof devnet.info.accounts)[number], protocol: "x402" | "mpp") => {
      const payer = wallet(devnet.info, account.privateKey);
      for (let n = 0; Date.now() < until; n++) {
        const body = {
          namespace,
          type: "bug",
          // Distinct titles: alike reports are grouped, and resolving one resolves its group.
          title: distinctTitle(`Storm report ${n}:`),
          description: "Filed during the storm.",
        };
        const done = await paidCall(
          target,
          tally,
          { kind: "feedback", protocol, path: "/api/namespace/feedback", body, payer },
          giveUpAt,
        );
        logical.push(done);
        if (done.outcome === "stored" && typeof done.result?.id === "string") items.push(done.result.id);
        await sleep(100 + rng() * 200);
      }
    };
    // One resolver per protocol, each paying rewards as the owner: a slow one never starves the other.
    const resolver = async (protocol: "x402" | "mpp") => {
      for (let n = 0; Date.now() < until; n++) {
        const id = items.shift();
        if (!id) {
          await sleep(300);
          continue;
        }
        const body = { feedbackId: id, message: "Thanks", rewardAmount: `0.0${1 + (n % 3)}` };
        logical.push(
          await paidCall(
            target,
            tally,
            { kind: "resolve", protocol, path: "/api/namespace/resolve", body, payer: owner },
            giveUpAt,
          ),
        );
      }
    };
    const killer = async () => {
      const [min, max] = options.killEvery;
      while (Date.now() < until) {
        await sleep(min + rng() * (max - min));
        if (Date.now() >= until) return;
        const victim = apps[Math.floor(rng() * apps.length)]!;
        await victim.kill();
        kills++;
        log(`[chaos] killed ${victim.url} (${kills})`);
        await victim.start();
      }
    };
    await Promise.all([
      agent(a1!, "x402"),
      agent(a2!, "x402"),
      agent(a3!, "x402"),
      agent(m1!, "mpp"),
      agent(m2!, "mpp"),
      resolver("x402"),
      resolver("mpp"),
      killer().then(() => {
        // The storm ends with the load: from here the network is good and nobody kills the app.
        evmProxy.setPolicy(PASS);
        tempoProxy.setPolicy(PASS);
      }),
    ]);
    evmProxy.setPolicy(PASS);
    tempoProxy.setPolicy(PASS);
    log(`[chaos] load done: ${logical.length} requests, ${kills} kills; waiting for reconciliation`);

    const settleStarted = Date.now();
    const rows = await ledger.settled(apps, options.settleSeconds * 1000);
    const settledAfterSeconds = Math.round((Date.now() - settleStarted) / 1000);
    const reconciliation = await reconcile(devnet.info, rows, logical);
    const byOutcome: Record<string, number> = {};
    const byKind: Record<string, number> = {};
    for (const l of logical) {
      byOutcome[l.outcome ?? "refused"] = (byOutcome[l.outcome ?? "refused"] ?? 0) + 1;
      byKind[`${l.kind}/${l.protocol}`] = (byKind[`${l.kind}/${l.protocol}`] ?? 0) + 1;
    }
    return {
      seconds: options.seconds,
      instances: options.instances,
      database: options.databaseUrl ? "PostgreSQL" : "PGlite",
      requests: {
        logical: logical.length,
        byKind,
        byOutcome,
        attempts: tally.attempts,
        answers: tally.answers,
      },
      kills,
      faults: {
        evm: evmProxy.stats().faults,
        tempo: tempoProxy.stats().faults,
        rpcCalls: evmProxy.stats().requests + tempoProxy.stats().requests,
      },
      reconciliation,
      anomalies: tally.anomalies,
      settledAfterSeconds,
    };
  } finally {
    clearInterval(ticker);
    await Promise.all(apps.map((a) => a.stop()));
    await ledger.close();
    await Promise.all([evmProxy.close(), tempoProxy.close()]);
    await devnet.stop();
    await rm(ledger.dataDir, { recursive: true, force: true });
  }
}
