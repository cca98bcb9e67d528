import { randomBytes } from "node:crypto";
import { tmpdir } from "node:os";
import { freePort } from "../../scripts/devnet/anvil";
import { devnetAppEnv } from "../../scripts/devnet/app-env";
import { type DevnetInfo, startDevnet } from "../../scripts/devnet/start-devnet";
import { type AppInstance, appInstance } from "./apps";
import { type Balancer, startBalancer } from "./balancer";
import { openLedger } from "./ledger-reader";
import type { Ledger } from "./reconcile";

type ClusterOptions = {
  /** The PostgreSQL server: the cluster makes a fresh database of its own there, and drops it at the end. */
  serverUrl: string;
  /** Set on top of the devnet's app environment (e.g. NEXT_DIST_DIR); a function when it needs the devnet. */
  env?: Record<string, string> | ((devnet: DevnetInfo) => Promise<Record<string, string>>);
  /** The front every request goes through (the round-robin balancer by default), on `port`. */
  front?: (port: number) => Promise<Balancer>;
  /** What the instances connect to instead of the database's own URL (a counting proxy in the bench). */
  databaseUrl?: (url: string) => string;
  log?: (line: string) => void;
};

/** `next start` instances behind one round-robin balancer, on one fresh PostgreSQL database and one devnet. */
export type Cluster = {
  /** The balancer's URL: the one public origin every instance serves. */
  origin: string;
  devnet: DevnetInfo;
  balancer: Balancer;
  /** The environment the instances run with (the database's URL, the chains, the keys). */
  appEnv: Record<string, string>;
  /** The instances now behind the balancer. */
  up(): AppInstance[];
  /** Runs exactly `n` instances behind the balancer. */
  scale(n: number): Promise<void>;
  /** Per instance now up: its paid calls that stored a write, by "operation/protocol", from its /metrics. */
  storedByInstance(): Promise<Array<Record<string, number>>>;
  /** Per instance now up: its statement pool's connections, statements sent and waits, from its /metrics. */
  poolByInstance(): Promise<Array<ReturnType<typeof poolFigures>>>;
  /** The ledger once nothing is left open, or as it is when `timeoutMs` has passed. */
  settledLedger(timeoutMs: number): Promise<Ledger>;
  stop(): Promise<void>;
};

const PAID_OK = /^feedback_paid_requests_total\{([^}]*)\} (\d+)/;

/** The paid calls one instance stored, from its Prometheus text. */
function storedCalls(metrics: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const line of metrics.split("\n")) {
    const m = PAID_OK.exec(line);
    if (!m) continue;
    const labels = Object.fromEntries([...m[1]!.matchAll(/(\w+)="([^"]*)"/g)].map((x) => [x[1], x[2]]));
    if (labels.outcome !== "ok") continue;
    const key = `${labels.operation}/${labels.protocol}`;
    out[key] = (out[key] ?? 0) + Number(m[2]);
  }
  return out;
}

/** One instance's statement pool, from its Prometheus text (lib/db/pool-stats.ts). */
function poolFigures(metrics: string) {
  const value = (name: string) => {
    const line = metrics.split("\n").find((l) => l.startsWith(`${name} `));
    return line === undefined ? undefined : Number(line.slice(name.length + 1));
  };
  return {
    connections: value("feedback_db_pool_connections"),
    statements: value("feedback_db_pool_statements_total"),
    waited: value("feedback_db_pool_waits_total"),
  };
}

/** Starts the front, a devnet whose public origin is the front, and a fresh database; no instance yet. */
export async function startCluster(options: ClusterOptions): Promise<Cluster> {
  const log = options.log ?? (() => {});
  const balancer = await (options.front ?? startBalancer)(await freePort());
  const devnet = await startDevnet({ appUrl: balancer.url });
  const ledger = await openLedger(options.serverUrl, tmpdir()).catch(async (error: unknown) => {
    await Promise.all([devnet.stop(), balancer.close()]);
    throw error;
  });
  const extra =
    typeof options.env === "function"
      ? await options.env(devnet.info).catch(async (error: unknown) => {
          await ledger.close();
          await Promise.all([devnet.stop(), balancer.close()]);
          throw error;
        })
      : options.env;
  const dbUrl = ledger.appEnv.databaseUrl!;
  const metricsToken = randomBytes(16).toString("hex");
  const env: Record<string, string> = {
    ...devnetAppEnv(devnet.info, { databaseUrl: options.databaseUrl?.(dbUrl) ?? dbUrl }),
    METRICS_TOKEN: metricsToken,
    // A claim left open by an overloaded moment is finished within seconds, not a minute.
    RECOVERY_INTERVAL_MS: "5000",
    ...extra,
  };
  const apps: AppInstance[] = [];
  let size = 0;
  const up = () => apps.slice(0, size);
  const scrape = async (a: AppInstance) => {
    const res = await fetch(`${a.url}/metrics`, { headers: { authorization: `Bearer ${metricsToken}` } });
    if (!res.ok) throw new Error(`${a.url}/metrics answered ${res.status}`);
    return res.text();
  };
  return {
    origin: balancer.url,
    devnet: devnet.info,
    balancer,
    appEnv: env,
    up,
    async scale(n) {
      while (apps.length < n) {
        // The devnet gives four facilitator keys: each instance holds one, and a fifth would find none free.
        apps.push(appInstance(await freePort(), env, log));
      }
      await Promise.all(apps.slice(0, n).map((a) => (a.alive() ? undefined : a.start())));
      size = n;
      await balancer.setUpstreams(up().map((a) => a.url.replace("localhost", "127.0.0.1")));
      await Promise.all(apps.slice(n).map((a) => (a.alive() ? a.stop() : undefined)));
    },
    async storedByInstance() {
      return Promise.all(up().map(async (a) => storedCalls(await scrape(a))));
    },
    async poolByInstance() {
      return Promise.all(up().map(async (a) => poolFigures(await scrape(a))));
    },
    settledLedger: (timeoutMs) => ledger.settled(up(), timeoutMs),
    async stop() {
      await Promise.all(apps.map((a) => a.stop()));
      await ledger.close().catch((error: unknown) => log(`[cluster] dropping the database failed: ${error}`));
      await Promise.all([balancer.close(), devnet.stop()]);
    },
  };
}
