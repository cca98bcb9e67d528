import http from "node:http";
import https from "node:https";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Resolver } from "./resolve-host";
import { sendWebhook } from "./send";

const stub =
  (...addresses: string[]): Resolver =>
  async () =>
    addresses.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));

describe("sendWebhook refusals (no packet is sent)", () => {
  const cases: [string, Resolver | undefined, RegExp][] = [
    ["http://hooks.example.com/", stub("10.0.0.7"), /private address/],
    ["http://hooks.example.com/", stub("93.184.216.34", "192.168.0.3"), /private address/],
    ["https://hooks.example.com/", stub("169.254.169.254"), /cloud metadata/],
    ["https://hooks.example.com/", stub("::ffff:127.0.0.1"), /loopback/],
    ["https://hooks.example.com/", stub("fd00:ec2::254"), /cloud metadata/],
    ["http://hooks.example.com/", stub(), /has no address/],
    ["http://2130706433/", undefined, /loopback/],
    ["http://[::ffff:a9fe:a9fe]/", undefined, /cloud metadata/],
    ["ftp://hooks.example.com/", stub("93.184.216.34"), /only http\(s\)/],
  ];

  it.each(cases)("refuses %s", async (url, resolve, reason) => {
    const request = vi.spyOn(http, "request");
    const secure = vi.spyOn(https, "request");
    const result = await sendWebhook(url, "{}", {}, { resolve });
    expect(result).toMatchObject({ ok: false, statusCode: null });
    expect(result.error).toMatch(reason);
    expect(request).not.toHaveBeenCalled();
    expect(secure).not.toHaveBeenCalled();
    vi.restoreAllMocks();
  });

  it("resolves the name once", async () => {
    const resolve = vi.fn(stub("10.1.1.1"));
    await sendWebhook("http://once.example.com/", "{}", {}, { resolve });
    expect(resolve).toHaveBeenCalledTimes(1);
    expect(resolve).toHaveBeenCalledWith("once.example.com", expect.any(AbortSignal));
  });
});

describe("sendWebhook against a local receiver (loopback explicitly allowed)", () => {
  const seen: { host?: string; path?: string; body: string }[] = [];
  let port = 0;
  const server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c) => {
      body += c;
    });
    req.on("end", () => {
      seen.push({ host: req.headers.host, path: req.url, body });
      if (req.url === "/redirect") {
        res.writeHead(302, { location: `http://127.0.0.1:${port}/ok` }).end();
      } else if (req.url === "/hang") {
        // Never answers: the response timeout must end the attempt.
      } else if (req.url === "/big") {
        res.writeHead(200).end("x".repeat(200_000));
      } else res.writeHead(204).end();
    });
  });
  beforeAll(async () => {
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });

  it("connects to the pinned address while keeping the name in the Host header", async () => {
    const result = await sendWebhook(
      `http://hooks.example.test:${port}/ok`,
      '{"a":1}',
      {},
      {
        allowLoopback: true,
        resolve: stub("127.0.0.1"),
      },
    );
    expect(result).toMatchObject({ ok: true, statusCode: 204, error: null });
    expect(seen.at(-1)).toEqual({ host: `hooks.example.test:${port}`, path: "/ok", body: '{"a":1}' });
  });

  it("does not follow redirects", async () => {
    const before = seen.length;
    const result = await sendWebhook(`http://127.0.0.1:${port}/redirect`, "{}", {}, { allowLoopback: true });
    expect(result).toMatchObject({ ok: false, statusCode: 302, error: "HTTP 302" });
    expect(seen.slice(before).map((s) => s.path)).toEqual(["/redirect"]);
  });

  it("gives up on a receiver that does not answer", async () => {
    const started = Date.now();
    const result = await sendWebhook(
      `http://127.0.0.1:${port}/hang`,
      "{}",
      {},
      {
        allowLoopback: true,
        responseTimeoutMs: 300,
      },
    );
    expect(result).toMatchObject({ ok: false, statusCode: null, error: "timed out after 0.3 s" });
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it("reads at most the capped body", async () => {
    const result = await sendWebhook(
      `http://127.0.0.1:${port}/big`,
      "{}",
      {},
      {
        allowLoopback: true,
        maxBodyBytes: 1024,
      },
    );
    expect(result.ok).toBe(true);
    expect(result.body.length).toBe(1024);
  });

  it("says in words why nothing answered: a closed port, a name that does not exist", async () => {
    // A port that was just free: nothing listens, so the connection is refused.
    const closed = http.createServer();
    await new Promise<void>((r) => closed.listen(0, "127.0.0.1", r));
    const free = (closed.address() as AddressInfo).port;
    await new Promise((r) => closed.close(r));
    const refused = await sendWebhook(`http://127.0.0.1:${free}/`, "{}", {}, { allowLoopback: true });
    expect(refused).toMatchObject({ ok: false, statusCode: null, error: "connection refused" });
    // RFC 6761: an .invalid name never exists, and is answered so without a query.
    const resolve = vi.fn(stub("93.184.216.34"));
    const missing = await sendWebhook("https://hooks.slack.invalid/x", "{}", {}, { resolve });
    expect(missing.error).toBe("DNS: no such host (hooks.slack.invalid)");
    expect(resolve).not.toHaveBeenCalled();
  });

  it("refuses loopback unless allowed", async () => {
    const result = await sendWebhook(`http://127.0.0.1:${port}/ok`, "{}", {});
    expect(result.error).toMatch(/not sent: .*loopback/);
  });
});
