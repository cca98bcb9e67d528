import { expect, test } from "@playwright/test";
import postgres from "postgres";
import { type RpcProxy, startRpcProxy } from "../../testing/rpc-proxy";
import { leaveWorkOpen, startReceiver } from "./abandoned";
import { startCluster } from "./cluster";
import { reconcile } from "./reconcile";
import { type WorkerProcess, workerProcess } from "./worker-process";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
// Claims are left to recovery once idle for three of these (12 s), rather than a minute.
const X402_TIMEOUT_MS = 4_000;

/** Polls `check` until it holds, or fails with `what` once `timeoutMs` has passed. */
async function until(what: string, timeoutMs: number, check: () => Promise<boolean>, everyMs = 500) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs / 1000} s`);
    await sleep(everyMs);
  }
}

// Two `next start` servers with BACKGROUND_WORK=off and one `npm run worker` on PostgreSQL. Payments
// whose servers never heard back are left open; only the worker can finish them. It is killed with
// SIGKILL in the middle of that pass, started again, and must still finish everything exactly once.
test("with the loops off in the web servers, a worker killed mid-pass still finishes every write, reward and webhook", async () => {
  const serverUrl = process.env.DATABASE_URL;
  test.skip(!serverUrl, "needs DATABASE_URL: one embedded database (PGlite) cannot be shared by processes");
  test.setTimeout(6 * 60_000);
  const lines: string[] = [];
  const log = (line: string) => lines.push(line);
  const proxies: RpcProxy[] = [];
  const receiver = await startReceiver();
  const cluster = await startCluster({
    serverUrl: serverUrl!,
    log,
    env: async (devnet) => {
      proxies.push(await startRpcProxy(devnet.x402.rpcUrl), await startRpcProxy(devnet.tempo.rpcUrl));
      const [evm, tempo] = proxies;
      return {
        BACKGROUND_WORK: "off",
        X402_RPC_URL: evm!.url,
        TEMPO_RPC_URL: tempo!.url,
        X402_TIMEOUT_MS: String(X402_TIMEOUT_MS),
      };
    },
  });
  const sql = postgres(cluster.appEnv.DATABASE_URL!, { max: 1, onnotice: () => {} });
  let worker: WorkerProcess | undefined;
  try {
    await cluster.scale(2);
    const { devnet, origin } = cluster;
    const { served, left, anomalies } = await leaveWorkOpen(origin, devnet, proxies, receiver.url);
    expect(
      served.map((s) => s.outcome),
      `served calls (${anomalies.join("; ")})`,
    ).toEqual(["stored", "stored", "stored"]);
    expect(
      left.map((l) => l.status),
      "answers while every send's answer was lost",
    ).not.toContain(200);
    const logical = [...served, ...left.map((l) => l.logical)];
    const keys = left.flatMap((l) => l.logical.keys);
    const statuses = async () =>
      (await sql<{ status: string }[]>`select status from payments where payment_key in ${sql(keys)}`).map(
        (r) => r.status,
      );

    // Nothing in the web servers takes them up: claims idle past recovery's wait, deliveries never sent.
    await until("the open claims idle past recovery's wait", 60_000, async () => {
      const [row] = await sql<
        { idle: boolean }[]
      >`select max(updated_at) < now() - ${`${3 * X402_TIMEOUT_MS + 3000} milliseconds`}::interval as idle from payments where payment_key in ${sql(keys)}`;
      return Boolean(row?.idle);
    });
    expect(
      (await statuses()).filter((s) => s === "claimed"),
      "claims the web servers left open",
    ).toHaveLength(left.length);
    const [sent] = await sql<
      { n: number }[]
    >`select count(*)::int as n from webhook_deliveries where status <> 'pending'`;
    expect(sent?.n, "deliveries the web servers sent").toBe(0);

    // The worker, over slow chains so its pass lasts; killed once some claims are finished and some not.
    proxies.push(await startRpcProxy(devnet.x402.rpcUrl), await startRpcProxy(devnet.tempo.rpcUrl));
    for (const slow of proxies.slice(2)) slow.setPolicy(() => ({ kind: "delay", ms: 250 }));
    worker = workerProcess(
      {
        ...cluster.appEnv,
        X402_RPC_URL: proxies[2]!.url,
        TEMPO_RPC_URL: proxies[3]!.url,
        RECOVERY_INTERVAL_MS: "1000",
      },
      log,
    );
    await worker.start();
    let atKill: string[] = [];
    await until(
      "a recovery pass part done",
      90_000,
      async () => {
        atKill = await statuses();
        return atKill.includes("fulfilled") && atKill.some((s) => s === "claimed" || s === "settled");
      },
      100,
    );
    await worker.kill();
    log(`[test] worker killed with claims ${atKill.join(",")}`);
    await worker.start();

    const ledger = await cluster.settledLedger(180_000);
    await until("every webhook delivered", 150_000, async () => {
      const [row] = await sql<
        { n: number }[]
      >`select count(*)::int as n from webhook_deliveries where status <> 'delivered'`;
      return row?.n === 0;
    });
    expect(await worker.stop(), "the worker's exit code after SIGTERM").toBe(0);
    expect(worker.lines().at(-1)).toMatch(/\[worker\] stopped \((finished|abandoned)\)/);

    const outbox = await sql<
      { id: string; event_type: string }[]
    >`select id, event_type from webhook_deliveries`;
    const reconciliation = await reconcile(devnet, ledger, logical);
    const { details, ...counts } = reconciliation;
    const answers = left.map((l) => l.status);
    console.log(
      `[worker] ${JSON.stringify({ answers, atKill, reconciliation: counts, outbox: outbox.length })}`,
    );
    await test.info().attach("worker-report.json", {
      body: JSON.stringify({ answers, atKill, reconciliation, outbox, received: receiver.received }, null, 2),
    });
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
    expect(reconciliation.writesStored, "one stored write per request").toBe(logical.length);
    expect(reconciliation.chargesOnChain, "one transfer to the service per request").toBe(logical.length);
    expect(
      ledger.payouts.map((p) => p.status),
      "rewards",
    ).toEqual(["paid", "paid"]);
    const count = (type: string) => outbox.filter((d) => d.event_type === type).length;
    expect(count("feedback.created"), "feedback.created queued").toBe(7);
    expect(count("reward.paid"), "reward.paid queued").toBe(2);
    const got = new Set(receiver.received.map((r) => r.id));
    expect(
      outbox.filter((d) => !got.has(d.id)),
      "deliveries the receiver never got",
    ).toEqual([]);
  } finally {
    await worker?.kill();
    await sql.end();
    await test.info().attach("worker.log", { body: lines.slice(-3_000).join("\n") });
    await cluster.stop();
    await Promise.all([...proxies.map((p) => p.close()), receiver.close()]);
  }
});
