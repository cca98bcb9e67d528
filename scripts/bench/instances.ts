/** The instances section: 1, 2, 4 instances behind a balancer, the ledger reconciled; DB cost per paid call. */
import { randomBytes } from "node:crypto";
import { type Cluster, startCluster } from "../../e2e/chaos/cluster";
import { reconcile } from "../../e2e/chaos/reconcile";
import { type Logical, wallet } from "../../e2e/chaos/workload";
import { config, DIST_DIR } from "./config";
import { closedLoop } from "./load";
import * as wire from "./pg-wire";

const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });

/** Runs the section; the cluster's database is dropped and its processes stopped whatever happens. */
export async function benchInstances(serverUrl: string) {
  if (config.instances.some((n) => !Number.isInteger(n) || n < 1 || n > 4)) {
    throw new Error("BENCH_INSTANCES must list counts from 1 to 4 (the devnet has four facilitator keys)");
  }
  const server = new URL(serverUrl);
  const counter = await wire.startWireCounter({ host: server.hostname, port: Number(server.port || 5432) });
  const viaCounter = (url: string) =>
    Object.assign(new URL(url), { hostname: "127.0.0.1", port: String(counter.port) }).toString();
  const cluster = await startCluster({
    serverUrl,
    env: { NEXT_DIST_DIR: DIST_DIR },
    databaseUrl: viaCounter,
  });
  try {
    return await run(cluster, counter);
  } finally {
    await cluster.stop();
    await counter.close();
  }
}

export type InstancesResult = Awaited<ReturnType<typeof run>>;

async function run(cluster: Cluster, counter: wire.WireCounter) {
  const { origin, devnet } = cluster;
  const logical: Logical[] = [];
  const payers = devnet.accounts.slice(0, 5).map((a) => wallet(devnet, a.privateKey));
  const owner = wallet(devnet, devnet.accounts[5]!.privateKey);
  const namespace = "bench-instances";
  // Unlike titles: alike reports are grouped, and resolving one would resolve its whole group.
  const unlike = () => `${randomBytes(9).toString("base64url")} ${randomBytes(9).toString("base64url")}`;
  const description = "A paid submission through the load balancer.";
  const body = (i: number, what: string) => ({
    namespace,
    type: "bug",
    title: `${what} ${i}: ${unlike()}`,
    description,
  });
  /** One paid call: its 402 and payment now, and the call itself returned, to be run (and counted) later. */
  type Protocol = "x402" | "mpp";
  const prepare = async (
    kind: Logical["kind"],
    b: object,
    payer: ReturnType<typeof wallet>,
    protocol: Protocol,
  ) => {
    const url = `${origin}/api/namespace/${kind}`;
    const asked = await post(url, b);
    if (asked.status !== 402)
      throw new Error(`${kind} asked ${asked.status}: ${(await asked.text()).slice(0, 200)}`);
    const signed = await payer.sign(protocol, asked);
    const entry: Logical = { kind, protocol, keys: [signed.key] };
    logical.push(entry);
    return async () => {
      const res = await post(url, b, signed.headers);
      const text = await res.text();
      if (res.status !== 200) throw new Error(`${kind} answered ${res.status}: ${text.slice(0, 200)}`);
      entry.outcome = "stored";
      return JSON.parse(text) as { id: string };
    };
  };
  await cluster.scale(1);
  await (await prepare("register", { namespace }, owner, "x402"))();

  // The database's cost per call, one call at a time on one instance, idle work subtracted.
  const measure = await wire.costMeter(counter, config.costIdleMs);
  const n = config.costCalls;
  const ids: Record<"x402" | "mpp", string[]> = { x402: [], mpp: [] };
  const submit = (protocol: Protocol) => async (i: number) => {
    const paid = await prepare("feedback", body(i, protocol), payers[i % 3]!, protocol);
    return async () => void ids[protocol].push((await paid()).id);
  };
  const resolve = (protocol: Protocol) => async (i: number) => {
    const reward = { feedbackId: ids[protocol][i]!, message: "Thanks", rewardAmount: "0.01" };
    const paid = await prepare("resolve", reward, owner, protocol);
    return async () => void (await paid());
  };
  const ask = async (i: number) => async () =>
    void (await (await post(`${origin}/api/namespace/feedback`, body(i, "ask"))).text());
  const perCall: Record<string, wire.CallCost> = {
    "402 (no credential)": await measure(n, ask),
    "x402 submission": await measure(n, submit("x402")),
    "MPP submission": await measure(n, submit("mpp")),
    "x402 rewarded resolve": await measure(Math.min(n, ids.x402.length), resolve("x402")),
    "MPP rewarded resolve": await measure(Math.min(n, ids.mpp.length), resolve("mpp")),
  };

  const levels = [];
  for (const count of config.instances) {
    await cluster.scale(count);
    // Each request signs its own payment before its clock starts; only the paid call is timed.
    const loop = (requests: number, concurrency: number) =>
      closedLoop(requests, concurrency, async (i, startClock) => {
        const paid = await prepare("feedback", body(i, `c${count}`), payers[i % payers.length]!, "x402");
        startClock();
        await paid();
        return null;
      });
    await loop(config.warmup * count, 8); // every instance's first calls (JIT, pool, leases) stay out of the level
    const [db0, lb0] = [counter.snapshot(), cluster.balancer.stats().perUpstream];
    const timed = await loop(config.instancesRequests, config.instancesConcurrency);
    const { rps, latency, wallMs: _, ...level } = timed;
    const [statements, roundTrips] = wire.total(wire.countsBetween(db0, counter.snapshot()));
    const perInstance = Object.entries(cluster.balancer.stats().perUpstream).map(
      ([u, k]) => k - (lb0[u] ?? 0),
    );
    const per = (x: number) => Math.round((x / Math.max(1, level.ok)) * 10) / 10;
    const db = { statementsPerCall: per(statements), roundTripsPerCall: per(roundTrips) };
    levels.push({
      instances: count,
      ...level,
      rps,
      latency,
      requestsPerInstance: perInstance.filter((k) => k > 0),
      db,
    });
    console.log(
      `  ${count} instance(s): ${level.ok}/${level.requests} ok, ${rps} req/s, DB ${JSON.stringify(db)}`,
    );
  }
  const { details, ...reconciliation } = await reconcile(
    devnet,
    await cluster.settledLedger(120_000),
    logical,
  );
  console.log(`  reconciled: ${JSON.stringify(reconciliation)} ${details.slice(0, 3).join("; ")}`);
  const [paidRequests, unanswered] = [logical.length, logical.filter((l) => l.outcome !== "stored").length];
  return {
    levels,
    perCall,
    paidRequests,
    unanswered,
    reconciliation: { ...reconciliation, details: details.slice(0, 10) },
  };
}
