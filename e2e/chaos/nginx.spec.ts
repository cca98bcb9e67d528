import http from "node:http";
import { expect, test } from "@playwright/test";
import { freePort } from "../../scripts/devnet/anvil";
import { signInHeader } from "../../testing/sign-in";
import { distinctTitle } from "../../testing/titles";
import { startCluster } from "./cluster";
import { type Nginx, nginxBinary, startNginx } from "./nginx";
import { reconcile } from "./reconcile";
import { type Logical, paidCall, type Tally, wallet } from "./workload";

const LIMIT = 20;

/** A GET from another loopback address (the whole of 127/8 is this machine): another client to nginx. */
function getFrom(localAddress: string, url: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders }>((resolve, reject) => {
    const req = http.get(url, { localAddress, headers, timeout: 30_000 }, (res) => {
      res.resume().on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers }));
    });
    req.on("error", reject);
    req.on("timeout", () => req.destroy(new Error(`no answer from ${url} within 30 s`)));
  });
}

/** A POST of a JSON body from `localAddress`: its status, headers and body. */
function postFrom(localAddress: string, url: string, body: string) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>(
    (resolve, reject) => {
      const headers = { "content-type": "application/json" };
      const req = http.request(url, { method: "POST", localAddress, headers, timeout: 30_000 }, (res) => {
        let text = "";
        res.on("data", (chunk: Buffer) => (text += chunk));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
      });
      req.on("error", reject);
      req.on("timeout", () => req.destroy(new Error(`no answer from ${url} within 30 s`)));
      req.end(body);
    },
  );
}

/** A JSON-RPC call to /mcp from `localAddress` (as a client at that address would, through nginx); its result. */
function mcpCallFrom(localAddress: string, url: string, id: number, name: string) {
  const body = JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: {} } });
  const headers = { "content-type": "application/json", accept: "application/json, text/event-stream" };
  return new Promise<{ structuredContent?: { status?: number } }>((resolve, reject) => {
    const req = http.request(url, { method: "POST", localAddress, headers, timeout: 30_000 }, (res) => {
      let text = "";
      res.on("data", (chunk: Buffer) => (text += chunk));
      res.on("end", () => {
        try {
          resolve((JSON.parse(text) as { result: { structuredContent?: { status?: number } } }).result);
        } catch {
          reject(new Error(`/mcp answered ${res.statusCode}: ${text.slice(0, 300)}`));
        }
      });
    });
    req.on("error", reject);
    req.on("timeout", () => req.destroy(new Error(`no answer from ${url} within 30 s`)));
    req.end(body);
  });
}

/** Asks as `from` (without a proof: a challenge, counted per address) until a 429 or 3 × LIMIT asks. */
async function askUntilLimited(url: string, from: string, forwardedFor: (n: number) => string) {
  const statuses: number[] = [];
  // A fixed window may end midway: three limits' worth always crosses one limit within one window.
  for (let n = 0; n < 3 * LIMIT && !statuses.includes(429); n++) {
    statuses.push((await getFrom(from, url, { "x-forwarded-for": forwardedFor(n) })).status);
  }
  return statuses;
}

// deploy/nginx.conf, as shipped, in front of two `next start` instances with TRUST_PROXY=true on PostgreSQL.
test("behind deploy/nginx.conf, paid calls, sign-ins, request ids, per-client rate limits and the paid calls' limit work, MCP tool calls too", async () => {
  const serverUrl = process.env.DATABASE_URL;
  test.skip(!serverUrl, "needs DATABASE_URL: one embedded database (PGlite) cannot be shared by processes");
  // CI installs nginx (.ci/run); elsewhere the test says what is missing rather than fail.
  test.skip(!nginxBinary() && !process.env.CI, "needs nginx (apt-get install -y nginx)");
  test.setTimeout(5 * 60_000);
  const lines: string[] = [];
  let nginx: Nginx | undefined;
  const cluster = await startCluster({
    serverUrl: serverUrl!,
    log: (line) => lines.push(line),
    front: async (port) => {
      nginx = await startNginx(port);
      return nginx;
    },
    env: { TRUST_PROXY: "true", RATE_LIMIT_ADDRESS_PER_MINUTE: String(LIMIT), LOG_REQUESTS: "true" },
  });
  try {
    await cluster.scale(2);
    const { devnet, origin } = cluster;
    const [agentAccount, , , mppAccount, , ownerAccount] = devnet.accounts;
    const tally: Tally = { attempts: 0, anomalies: [], answers: {} };
    const logical: Logical[] = [];
    const call = async (request: Parameters<typeof paidCall>[2]) => {
      const done = await paidCall({ pick: () => origin }, tally, request, Date.now() + 60_000);
      logical.push(done);
      return done;
    };

    // Paid calls over both protocols, through nginx.
    const namespace = `nginx-${Date.now().toString(36)}`;
    const owner = wallet(devnet, ownerAccount!.privateKey);
    const register = { kind: "register", protocol: "x402", body: { namespace }, payer: owner } as const;
    await call({ ...register, path: "/api/namespace/register" });
    for (const [account, protocol] of [
      [agentAccount!, "x402"],
      [mppAccount!, "mpp"],
    ] as const) {
      const body = {
        namespace,
        type: "bug",
        title: distinctTitle("Behind nginx"),
        description: "Filed through nginx.",
      };
      const payer = wallet(devnet, account.privateKey);
      await call({ kind: "feedback", protocol, path: "/api/namespace/feedback", body, payer });
    }
    expect(
      logical.map((l) => l.outcome),
      `paid calls (${tally.anomalies.join("; ")})`,
    ).toEqual(["stored", "stored", "stored"]);

    // A sign-in bound to the public origin (nginx's), then a signed read.
    const statusUrl = `${origin}/api/namespace/status?namespace=${namespace}`;
    const proof = await signInHeader(fetch, statusUrl, agentAccount!.privateKey as `0x${string}`);
    const signedIn = await fetch(statusUrl, { headers: { "sign-in-with-x": proof } });
    expect(signedIn.status).toBe(200);
    expect((await signedIn.json()).count).toBe(1);
    const ownerUrl = `${origin}/api/namespace/list?namespace=${namespace}`;
    const ownerProof = await signInHeader(fetch, ownerUrl, ownerAccount!.privateKey as `0x${string}`);
    expect((await fetch(ownerUrl, { headers: { "sign-in-with-x": ownerProof } })).status).toBe(200);

    // Request ids: the client's passes through both ways; without one, nginx's is the service's too.
    const mine = `nginx-e2e-${Date.now()}`;
    const asked = await fetch(`${origin}/api/namespace/status`, { headers: { "x-request-id": mine } });
    expect(asked.status).toBe(402);
    expect(asked.headers.get("x-request-id")).toBe(mine);
    const given = (await fetch(`${origin}/api/namespace/status`)).headers.get("x-request-id") ?? "";
    expect(given).toMatch(/^[0-9a-f]{32}$/);
    // Each writes its line once the answer is out, a moment after the client has it.
    for (const id of [mine, given]) {
      await expect
        .poll(() => nginx!.accessLog().some((l) => l.requestId === id), { message: `nginx logged ${id}` })
        .toBe(true);
      await expect
        .poll(() => lines.some((l) => l.includes(`"requestId":"${id}"`)), {
          message: `an instance logged ${id}`,
        })
        .toBe(true);
    }

    // A body over the service's cap is refused by nginx in the service's words; one under it goes through.
    const post = (bytes: number) =>
      fetch(`${origin}/api/namespace/feedback`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ namespace, type: "bug", title: "Big", description: "x".repeat(bytes) }),
        signal: AbortSignal.timeout(30_000),
      });
    const tooLarge = await post(300 * 1024);
    expect(tooLarge.status).toBe(413);
    expect(tooLarge.headers.get("content-type")).toBe("application/problem+json");
    expect((await tooLarge.json()).type).toBe("/problems/payload-too-large");
    expect((await post(200 * 1024)).status, "a 200 KiB body, refused by the service's own rules").toBe(400);

    // Rate limits count the address nginx saw, whatever X-Forwarded-For the client wrote.
    const ask = `${origin}/api/namespace/status`;
    const limited = await askUntilLimited(ask, "127.0.0.2", (n) => `198.51.100.${n}`);
    expect(limited.at(-1), `answers to 127.0.0.2: ${limited.join(",")}`).toBe(429);
    expect(
      limited.filter((s) => s !== 402 && s !== 429),
      "other answers",
    ).toEqual([]);
    // Another client claiming to be the limited one is not limited; the limited one claiming otherwise is.
    expect((await getFrom("127.0.0.3", ask, { "x-forwarded-for": "127.0.0.2" })).status).toBe(402);
    expect((await getFrom("127.0.0.2", ask, { "x-forwarded-for": "127.0.0.3" })).status).toBe(429);
    expect(nginx!.accessLog().some((l) => l.client === "127.0.0.2")).toBe(true);

    // An MCP tool call is its route called inside the instance, counted against the address nginx saw.
    const toolAnswers: (number | undefined)[] = [];
    for (let n = 0; n < 3 * LIMIT && !toolAnswers.includes(429); n++) {
      const result = await mcpCallFrom("127.0.0.4", `${origin}/mcp`, n, "feedback_status");
      toolAnswers.push(result.structuredContent?.status);
    }
    expect(toolAnswers.at(-1), `tool answers to 127.0.0.4: ${toolAnswers.join(",")}`).toBe(429);
    expect((await getFrom("127.0.0.4", ask)).status, "the same client's plain request, same limit").toBe(429);

    // Past the paid calls' rate, nginx refuses in the service's words before any instance sees the call: here
    // a second nginx in front of the same instances, its limit one paid request a second and a burst of one.
    const strict = await startNginx(await freePort(), { paidLimit: { rate: "1r/s", burst: 1 } });
    try {
      await strict.setUpstreams(cluster.up().map((i) => i.url));
      const submit = JSON.stringify({
        namespace: "nginx-busy",
        type: "bug",
        title: distinctTitle("Refused by nginx"),
        description: "Sent at once with four others.",
      });
      const [burst, bystander] = await Promise.all([
        Promise.all(
          Array.from({ length: 5 }, () =>
            postFrom("127.0.0.5", `${strict.url}/api/namespace/feedback`, submit),
          ),
        ),
        // Another client asking at the same moment has a bucket of its own: one client's flood refuses only it.
        postFrom("127.0.0.7", `${strict.url}/api/namespace/feedback`, submit),
      ]);
      const statuses = burst.map((r) => r.status).sort();
      expect(statuses, "two asks reach an instance, three are refused").toEqual([402, 402, 503, 503, 503]);
      expect(bystander.status, "another client's paid call during the flood").toBe(402);
      for (const busy of burst.filter((r) => r.status === 503)) {
        expect(busy.headers["content-type"]).toBe("application/problem+json");
        expect(busy.headers["retry-after"]).toBe("1");
        expect(busy.headers["x-request-id"]).toMatch(/^[0-9a-f]{32}$/);
        expect(JSON.parse(busy.body)).toMatchObject({ type: "/problems/service-busy", status: 503 });
      }
      // Refused in nginx: no instance was asked. A free route is never counted.
      const refused = strict.accessLog().filter((l) => l.status === 503);
      expect(refused.map((l) => l.upstream)).toEqual(["-", "-", "-"]);
      const free = await Promise.all(
        Array.from({ length: 3 }, () => getFrom("127.0.0.6", `${strict.url}/healthz`)),
      );
      expect(free.map((r) => r.status)).toEqual([200, 200, 200]);

      // The operator's routes answer this host alone: from anywhere else nginx says they do not exist.
      for (const route of ["/metrics", "/ops/backup", "/api/cron"]) {
        const outside = await getFrom("127.0.0.9", `${strict.url}${route}`);
        expect(outside.status, route).toBe(404);
        expect(outside.headers["content-type"], route).toBe("application/problem+json");
      }
      expect(
        strict
          .accessLog()
          .filter((l) => l.client === "127.0.0.9")
          .map((l) => l.upstream),
      ).toEqual(["-", "-", "-"]);
      await getFrom("127.0.0.1", `${strict.url}/metrics`);
      expect(
        strict.accessLog().find((l) => l.client === "127.0.0.1")?.upstream,
        "this host's scrape",
      ).not.toBe("-");

      // An instance gone mid-call: nginx answers in the service's words, a send-again with Retry-After.
      await strict.setUpstreams([`http://127.0.0.1:${await freePort()}`]);
      const gone = await postFrom("127.0.0.10", `${strict.url}/api/namespace/feedback`, submit);
      expect(gone.status).toBe(503);
      expect(gone.headers["content-type"]).toBe("application/problem+json");
      expect(gone.headers["retry-after"]).toBe("5");
      expect(JSON.parse(gone.body)).toMatchObject({ type: "/problems/service-unavailable", status: 503 });
      expect(JSON.parse(gone.body).detail).toContain("same payment");
    } finally {
      await strict.close();
    }

    // Both instances served, nothing failed in nginx, and the ledger reconciles with the chains.
    expect(Object.keys(nginx!.stats().perUpstream), "instances nginx sent requests to").toHaveLength(2);
    expect(nginx!.stats().failed, "requests nginx answered 502 or 504").toBe(0);
    const reconciliation = await reconcile(devnet, await cluster.settledLedger(60_000), logical);
    expect(reconciliation.details).toEqual([]);
    expect(reconciliation.writesStored).toBe(logical.length);
  } finally {
    await test.info().attach("instances.log", { body: lines.slice(-2_000).join("\n") });
    await test.info().attach("nginx-error.log", { body: nginx?.errorLog() ?? "" });
    await cluster.stop();
  }
});
