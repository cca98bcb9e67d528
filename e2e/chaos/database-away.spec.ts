import { expect, test } from "@playwright/test";
import { freePort } from "../../scripts/devnet/anvil";
import { startTcpProxy, type TcpProxy } from "../../testing/tcp-proxy";
import { appInstance } from "./apps";
import { type Cluster, startCluster } from "./cluster";
import { workerProcess } from "./worker-process";

// `next start` and `npm run worker` with PostgreSQL behind a proxy that can drop it. Started while the
// database is away, a server answers /healthz from the process alone and every call that needs the database
// with a quick 503 and Retry-After (no request held until the database answers), waits for it, and then
// serves; if it never comes, the process exits non-zero (so systemd or an orchestrator starts it again)
// instead of staying up answering errors. Once up, an outage is a 503 to send again and /healthz stays 200.
test("a server started while PostgreSQL is away answers /healthz and quick 503s, serves once it answers, and exits non-zero when it never does", async () => {
  const serverUrl = process.env.DATABASE_URL;
  test.skip(!serverUrl, "needs DATABASE_URL: the embedded database lives in the process and cannot be away");
  test.setTimeout(4 * 60_000);
  const lines: string[] = [];
  const log = (line: string) => lines.push(line);
  const server = new URL(serverUrl!);
  const database: TcpProxy = await startTcpProxy(server);
  let cluster: Cluster | undefined;
  try {
    cluster = await startCluster({
      serverUrl: serverUrl!,
      log,
      databaseUrl: (url) => {
        const proxied = new URL(url);
        proxied.host = `${database.host}:${database.port}`;
        return proxied.toString();
      },
    });
    await database.cut();
    // It comes up (Next runs the start-up hook on its first request) and says it is waiting: /healthz
    // answers at once, /readyz says it cannot serve, and a paid call is a quick 503 to send again.
    await cluster.scale(1);
    const [app] = cluster.up();
    const waiting = "[startup] the database cannot be reached";
    await expect.poll(() => lines.some((l) => l.includes(waiting)), { timeout: 90_000 }).toBe(true);
    expect((await fetch(`${app!.url}/healthz`, { signal: AbortSignal.timeout(5_000) })).status).toBe(200);
    expect((await fetch(`${app!.url}/readyz`, { signal: AbortSignal.timeout(5_000) })).status).toBe(503);
    const early = await fetch(`${app!.url}/api/namespace/feedback`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        namespace: "away-early",
        type: "bug",
        title: "Early",
        description: "Before the database.",
      }),
      signal: AbortSignal.timeout(5_000),
    });
    expect(early.status).toBe(503);
    expect(early.headers.get("content-type")).toBe("application/problem+json");
    expect(Number(early.headers.get("retry-after"))).toBeGreaterThan(0);
    // The database comes back: the server opens it and serves.
    await database.heal();
    const answered = /\[startup\] the database answered after \d+ attempts/;
    await expect.poll(() => lines.some((l) => answered.test(l)), { timeout: 60_000 }).toBe(true);
    await expect
      .poll(async () => (await fetch(`${app!.url}/readyz`)).status, { timeout: 30_000 })
      .not.toBe(503);

    // Up, then the database goes away: the process stays alive and says so, never a 500.
    await database.cut();
    expect((await fetch(`${app!.url}/healthz`)).status).toBe(200);
    const listed = await fetch(`${app!.url}/api/namespace/list?namespace=acme-app`);
    expect([402, 503]).toContain(listed.status);
    const ask = await fetch(`${app!.url}/api/namespace/feedback`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        namespace: "away-test",
        type: "bug",
        title: "Away",
        description: "While away.",
      }),
    });
    expect([402, 503]).toContain(ask.status);
    if (ask.status === 503) expect(Number(ask.headers.get("retry-after"))).toBeGreaterThan(0);
    await database.heal();

    // Never back: each exits 1 within its bound, naming the variable to check.
    await database.cut();
    const env = { ...cluster.appEnv, DB_START_TIMEOUT_MS: "3000" };
    const doomed = appInstance(await freePort(), env, log);
    // It comes up answering, then exits 1 once DB_START_TIMEOUT_MS has passed. On a loaded machine its first
    // answer can take longer than that bound, and it has exited 1 before answering: the end this test is about.
    await doomed.start().catch((error: unknown) => {
      if (!String(error).includes("next start exited (1)")) throw error;
    });
    await expect.poll(() => doomed.alive(), { timeout: 60_000 }).toBe(false);
    const worker = workerProcess({ ...env, BACKGROUND_WORK: "off" }, log);
    await expect(worker.start()).rejects.toThrow(/the worker exited \(1\)/);
    expect(lines.join("\n")).toContain("could not be reached within DB_START_TIMEOUT_MS (3000 ms)");
    expect(lines.join("\n")).toContain("Check DATABASE_URL; exiting.");
  } finally {
    await database.heal().catch(() => {});
    await cluster?.stop();
    await database.close();
  }
});
