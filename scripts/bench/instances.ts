/**
 * The "instances" section of `npm run bench`: 1, 2 and 4 `next start` instances behind a round-robin
 * balancer on one fresh PostgreSQL database, paid x402 submissions at a fixed concurrency through it,
 * then the ledger reconciled against the chains; and the database's cost of each kind of paid call,
 * counted on the wire between the instances and PostgreSQL.
 */
import { randomBytes } from "node:crypto";
import { type Cluster, startCluster } from "../../e2e/chaos/cluster";
import { reconcile } from "../../e2e/chaos/reconcile";
import { type Logical, wallet } from "../../e2e/chaos/workload";
import { closedLoop } from "./common";
import { type CallCost, costMeter } from "./db-cost";
import { countsBetween, startWireCounter } from "./pg-wire-counter";

type InstancesOptions = {
  serverUrl: string;
  distDir: string;
  counts: number[];
  concurrency: number;
  requests: number;
  warmup: number;
  /** Sequential calls per kind for the database cost. */
  costCalls: number;
  idleMs: number;
};

const FEEDBACK = "/api/namespace/feedback";

function post(origin: string, path: string, body: unknown, headers: Record<string, string> = {}) {
  return fetch(`${origin}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
}

/** Runs the section; the cluster's database is dropped and its processes stopped whatever happens. */
export async function benchInstances(options: InstancesOptions) {
  const server = new URL(options.serverUrl);
  const counter = await startWireCounter({ host: server.hostname, port: Number(server.port || 5432) });
  const cluster = await startCluster({
    serverUrl: options.serverUrl,
    env: { NEXT_DIST_DIR: options.distDir },
    databaseUrl: (url) => {
      const via = new URL(url);
      via.hostname = "127.0.0.1";
      via.port = String(counter.port);
      return via.toString();
    },
  });
  try {
    return await run(cluster, options, counter);
  } finally {
    await cluster.stop();
    await counter.close();
  }
}

async function run(
  cluster: Cluster,
  options: InstancesOptions,
  counter: Awaited<ReturnType<typeof startWireCounter>>,
) {
  const { origin, devnet } = cluster;
  const logical: Logical[] = [];
  const payers = devnet.accounts.slice(0, 5).map((a) => wallet(devnet, a.privateKey));
  const owner = wallet(devnet, devnet.accounts[5]!.privateKey);
  const namespace = "bench-instances";
  const body = (i: number, what: string) => ({
    namespace,
    type: "bug",
    // Unlike titles: alike reports are grouped, and resolving one would resolve its whole group.
    title: `${what} ${i}: ${randomBytes(9).toString("base64url")} ${randomBytes(9).toString("base64url")}`,
    description: "A paid submission through the load balancer.",
  });
  /** One paid call: its 402, a signed payment, and the call itself (returned to be run, and counted, later). */
  const prepare = async (
    kind: Logical["kind"],
    b: object,
    payer: ReturnType<typeof wallet>,
    protocol: "x402" | "mpp",
  ) => {
    const path = `/api/namespace/${kind}`;
    const asked = await post(origin, path, b);
    if (asked.status !== 402)
      throw new Error(`${path} asked ${asked.status}: ${(await asked.text()).slice(0, 200)}`);
    const signed = await payer.sign(protocol, asked);
    const entry: Logical = { kind, protocol, keys: [signed.key] };
    logical.push(entry);
    return async () => {
      const res = await post(origin, path, b, signed.headers);
      const text = await res.text();
      if (res.status !== 200) throw new Error(`${path} answered ${res.status}: ${text.slice(0, 200)}`);
      entry.outcome = "stored";
      return JSON.parse(text) as { id: string };
    };
  };

  await cluster.scale(1);
  await (await prepare("register", { namespace }, owner, "x402"))();

  // The database's cost per call, one call at a time on one instance, idle work subtracted.
  const meter = await costMeter(counter, options.idleMs);
  const n = options.costCalls;
  const ids: Record<"x402" | "mpp", string[]> = { x402: [], mpp: [] };
  const submit = (protocol: "x402" | "mpp") => (i: number) =>
    prepare("feedback", body(i, protocol), payers[i % 3]!, protocol).then((paid) => async () => {
      ids[protocol].push((await paid()).id);
    });
  const resolve = (protocol: "x402" | "mpp") => async (i: number) => {
    const b = { feedbackId: ids[protocol][i]!, message: "Thanks", rewardAmount: "0.01" };
    const paid = await prepare("resolve", b, owner, protocol);
    return async () => void (await paid());
  };
  const perCall: Record<string, CallCost> = {
    "402 (no credential)": await meter.measure(
      n,
      async (i) => async () => void (await post(origin, FEEDBACK, body(i, "ask")).then((r) => r.text())),
    ),
    "x402 submission": await meter.measure(n, submit("x402")),
    "MPP submission": await meter.measure(n, submit("mpp")),
    "x402 rewarded resolve": await meter.measure(Math.min(n, ids.x402.length), resolve("x402")),
    "MPP rewarded resolve": await meter.measure(Math.min(n, ids.mpp.length), resolve("mpp")),
  };

  const levels = [];
  for (const count of options.counts) {
    await cluster.scale(count);
    // Each request signs its own payment before its clock starts; only the paid call is timed.
    const loop = (requests: number, concurrency: number) =>
      closedLoop(requests, concurrency, async (i, startClock) => {
        const paid = await prepare("feedback", body(i, `c${count}`), payers[i % payers.length]!, "x402");
        startClock();
        await paid();
        return null;
      });
    // Every instance's first calls (JIT, pool, leases) stay out of the level.
    await loop(options.warmup * count, 8);
    const before = { db: counter.snapshot(), lb: cluster.balancer.stats().perUpstream };
    const level = await loop(options.requests, options.concurrency);
    const db = countsBetween(before.db, counter.snapshot());
    const lb = cluster.balancer.stats().perUpstream;
    const perInstance = Object.entries(lb)
      .map(([u, k]) => k - (before.lb[u] ?? 0))
      .filter((k) => k > 0);
    levels.push({
      instances: count,
      concurrency: options.concurrency,
      requests: level.requests,
      ok: level.ok,
      errors: level.errors,
      errorSamples: level.errorSamples,
      rps: level.rps,
      latency: level.latency,
      requestsPerInstance: perInstance,
      db: {
        statementsPerCall: Math.round((db.statements / Math.max(1, level.ok)) * 10) / 10,
        roundTripsPerCall: Math.round((db.roundTrips / Math.max(1, level.ok)) * 10) / 10,
      },
    });
    console.log(
      `  ${count} instance(s) c=${options.concurrency}: ${level.ok}/${level.requests} ok  ${level.rps} req/s  p50 ${level.latency.p50} ms  p95 ${level.latency.p95} ms  (per instance ${perInstance.join("/")}; DB ${levels.at(-1)!.db.statementsPerCall} statements, ${levels.at(-1)!.db.roundTripsPerCall} round trips per call)`,
    );
  }

  const ledger = await cluster.settledLedger(120_000);
  const { details, ...reconciliation } = await reconcile(devnet, ledger, logical);
  console.log(
    `  reconciled: ${JSON.stringify(reconciliation)}${details.length ? ` — ${details.slice(0, 3).join("; ")}` : ""}`,
  );
  return {
    levels,
    perCall,
    paidRequests: logical.length,
    unanswered: logical.filter((l) => l.outcome !== "stored").length,
    reconciliation: { ...reconciliation, details: details.slice(0, 10) },
  };
}
