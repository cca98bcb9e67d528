import { expect, test } from "@playwright/test";
import { distinctTitle } from "../../testing/titles";
import { type Cluster, startCluster } from "./cluster";
import { reconcile } from "./reconcile";
import { type Logical, paidCall, type Tally, type Target, type Wallet, wallet } from "./workload";

const INSTANCES = 4;
const SUBMISSIONS_PER_AGENT = 8;
const RESOLVES_PER_PROTOCOL = 4;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

type Spread = { tally: Tally; logical: Logical[] };

/**
 * One signed payment sent to every instance at the same moment, straight to each: only a ledger shared
 * by all of them can store it once and give every copy the same answer. A 503 "pending" is asked again.
 */
async function sameCredentialEverywhere(
  cluster: Cluster,
  payer: Wallet,
  protocol: "x402" | "mpp",
  body: object,
) {
  const path = "/api/namespace/feedback";
  const send = (base: string, headers: Record<string, string> = {}) =>
    fetch(`${base}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: JSON.stringify(body),
    });
  const signed = await payer.sign(protocol, await send(cluster.origin));
  const answers = await Promise.all(
    cluster.up().map(async (app) => {
      const first = await send(app.url, signed.headers);
      let res = first;
      for (let tries = 0; res.status === 503 && tries < 60; tries++) {
        await sleep(1_000);
        res = await send(app.url, signed.headers);
      }
      return { first: first.status, status: res.status, id: ((await res.json()) as { id?: string }).id };
    }),
  );
  const logical: Logical = { kind: "feedback", protocol, keys: [signed.key], outcome: "stored" };
  return { logical, answers };
}

/** Registers a namespace, then five agents submit and two resolvers pay rewards, all through the balancer. */
async function spread(cluster: Cluster, { tally, logical }: Spread) {
  const target: Target = { pick: () => cluster.origin };
  const giveUpAt = Date.now() + 150_000;
  const [a1, a2, a3, m1, m2, ownerAccount] = cluster.devnet.accounts;
  const owner = wallet(cluster.devnet, ownerAccount!.privateKey);
  const namespace = `spread-${Date.now().toString(36)}`;
  const call = async (request: Parameters<typeof paidCall>[2]) => {
    const done = await paidCall(target, tally, request, giveUpAt);
    logical.push(done);
    return done;
  };
  const registered = await call({
    kind: "register",
    protocol: "x402",
    path: "/api/namespace/register",
    body: { namespace },
    payer: owner,
  });
  if (registered.outcome !== "stored") throw new Error(`register: ${tally.anomalies.join("; ")}`);

  const items: string[] = [];
  let agentsLeft = 5;
  const agent = async (account: (typeof cluster.devnet.accounts)[number], protocol: "x402" | "mpp") => {
    const payer = wallet(cluster.devnet, account.privateKey);
    for (let n = 0; n < SUBMISSIONS_PER_AGENT; n++) {
      // Distinct titles: alike reports are grouped, and resolving one would resolve its group.
      const title = distinctTitle(`Spread report ${n}`);
      const body = { namespace, type: "bug", title, description: "Filed through the balancer." };
      const done = await call({ kind: "feedback", protocol, path: "/api/namespace/feedback", body, payer });
      if (done.outcome === "stored" && typeof done.result?.id === "string") items.push(done.result.id);
    }
    agentsLeft--;
  };
  const resolver = async (protocol: "x402" | "mpp") => {
    for (let n = 0; n < RESOLVES_PER_PROTOCOL; ) {
      const id = items.shift();
      if (!id) {
        if (agentsLeft === 0) return;
        await sleep(200);
        continue;
      }
      const body = { feedbackId: id, message: "Thanks", rewardAmount: `0.0${1 + (n % 3)}` };
      await call({ kind: "resolve", protocol, path: "/api/namespace/resolve", body, payer: owner });
      n++;
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
  ]);
  const [b1, b2] = [cluster.devnet.accounts[6]!, cluster.devnet.accounts[7]!];
  const everywhere = await Promise.all(
    (["x402", "mpp"] as const).map((protocol, i) =>
      sameCredentialEverywhere(cluster, wallet(cluster.devnet, (i ? b2 : b1).privateKey), protocol, {
        namespace,
        type: "feedback",
        title: distinctTitle(`Sent to every instance at once over ${protocol}`),
        description: "One payment, four copies, one write.",
      }),
    ),
  );
  logical.push(...everywhere.map((e) => e.logical));
  const ledger = await cluster.settledLedger(120_000);
  return {
    everywhere: everywhere.map((e) => e.answers),
    reconciliation: await reconcile(cluster.devnet, ledger, logical),
    stored: await cluster.storedByInstance(),
    pools: await cluster.poolByInstance(),
    balancer: cluster.balancer.stats(),
  };
}

// The app keeps no state of its own: four `next start` instances behind a round-robin balancer share one
// PostgreSQL database, agents pay over x402 and MPP through the balancer, the owner pays rewards, and
// the ledger is reconciled against both chains. No faults here: the fault suite is chaos.spec.ts.
test("four instances behind one balancer on one database lose no write and charge nothing twice", async () => {
  const serverUrl = process.env.DATABASE_URL;
  test.skip(!serverUrl, "needs DATABASE_URL: one embedded database (PGlite) cannot be shared by processes");
  test.setTimeout(6 * 60_000);
  const lines: string[] = [];
  const cluster = await startCluster({ serverUrl: serverUrl!, log: (line) => lines.push(line) });
  const run: Spread = { tally: { attempts: 0, anomalies: [], answers: {} }, logical: [] };
  const { tally, logical } = run;
  const outcome = await cluster
    .scale(INSTANCES)
    .then(() => spread(cluster, run))
    .finally(async () => {
      await test.info().attach("instances.log", { body: lines.slice(-2_000).join("\n") });
      await cluster.stop();
    });
  const { details, ...reconciliation } = outcome.reconciliation;
  const summary = { requests: logical.length, answers: tally.answers, ...outcome, reconciliation };
  console.log(`[instances] ${JSON.stringify(summary)}`);
  await test
    .info()
    .attach("instances-report.json", { body: JSON.stringify({ ...summary, details }, null, 2) });

  const count = (kind: string, protocol: string) =>
    logical.filter((l) => l.kind === kind && l.protocol === protocol).length;
  expect(count("feedback", "x402")).toBe(3 * SUBMISSIONS_PER_AGENT + 1);
  expect(count("feedback", "mpp")).toBe(2 * SUBMISSIONS_PER_AGENT + 1);
  expect(count("resolve", "x402"), "rewarded resolves over x402").toBe(RESOLVES_PER_PROTOCOL);
  expect(count("resolve", "mpp"), "rewarded resolves over MPP").toBe(RESOLVES_PER_PROTOCOL);
  expect(tally.anomalies, "answers no agent should get").toEqual([]);
  // With no faults, every request ends stored (a reward may still be on its way: it is then paid by recovery).
  const unfinished = logical.filter(
    (l) => l.outcome !== "stored" && !(l.kind === "resolve" && l.outcome === "payout-pending"),
  );
  expect(unfinished, "requests that did not end stored").toEqual([]);

  // The load was spread: every instance got requests from the balancer and stored paid writes itself.
  const perUpstream = Object.values(outcome.balancer.perUpstream);
  expect(perUpstream, "instances the balancer sent requests to").toHaveLength(INSTANCES);
  expect(outcome.balancer.failed, "requests no instance answered").toBe(0);
  const storedPer = outcome.stored.map((s) => Object.values(s).reduce((a, b) => a + b, 0));
  for (const [i, n] of storedPer.entries())
    expect(n, `paid writes stored by instance ${i}`).toBeGreaterThan(0);
  // Each instance counts its own pool of PostgreSQL connections, whichever route opened it.
  for (const [i, pool] of outcome.pools.entries()) {
    expect(pool.connections, `instance ${i}'s pool`).toBe(10);
    expect(pool.statements, `statements instance ${i} sent`).toBeGreaterThan(0);
    expect(pool.waited, `statements that waited on instance ${i}'s pool`).toBeGreaterThanOrEqual(0);
  }
  const storedNow = logical.filter((l) => l.outcome === "stored").length;
  expect(
    storedPer.reduce((a, b) => a + b, 0),
    "stored writes the instances counted",
  ).toBe(storedNow);

  // One credential sent to all four at once: one write, and every copy answered with it.
  for (const answers of outcome.everywhere) {
    expect(
      answers.map((a) => a.status),
      "final answers to the copies",
    ).toEqual(answers.map(() => 200));
    expect(new Set(answers.map((a) => a.id)).size, "items the copies were answered with").toBe(1);
  }

  // The ledger against the chains: one stored write per charge, nothing charged or paid twice, nothing open.
  expect(details, "reconciliation").toEqual([]);
  expect(reconciliation).toMatchObject({
    lostWrites: 0,
    unpaidStores: 0,
    doubleCharges: 0,
    doublePayouts: 0,
    doubleRefunds: 0,
    openClaims: 0,
    openPayouts: 0,
    refunds: 0,
  });
  expect(reconciliation.writesStored, "one fulfilled payment per agent request").toBe(logical.length);
  expect(reconciliation.chargesOnChain, "one transfer to the service per agent request").toBe(logical.length);
});
