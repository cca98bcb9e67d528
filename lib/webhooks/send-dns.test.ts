import dgram from "node:dgram";
import { Resolver as DnsResolver } from "node:dns/promises";
import http from "node:http";
import net, { type AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { sendWebhook } from "./send";

// A receiver that must never be reached when resolution does not finish in time.
let connections = 0;
const tcp = net.createServer((socket) => {
  connections += 1;
  socket.destroy();
});
// A name server that reads every query and answers none.
const queries: Buffer[] = [];
const udp = dgram.createSocket("udp4", (message) => queries.push(message));
// A receiver that answers 204, for names that do resolve.
const hosts: (string | undefined)[] = [];
const web = http.createServer((req, res) => {
  hosts.push(req.headers.host);
  res.writeHead(204).end();
});
const ports = { tcp: 0, udp: 0, web: 0 };

beforeAll(async () => {
  await new Promise<void>((r) => tcp.listen(0, "127.0.0.1", r));
  await new Promise<void>((r) => web.listen(0, "127.0.0.1", r));
  await new Promise<void>((r) => udp.bind(0, "127.0.0.1", r));
  ports.tcp = (tcp.address() as AddressInfo).port;
  ports.web = (web.address() as AddressInfo).port;
  ports.udp = udp.address().port;
});
afterAll(async () => {
  udp.close();
  web.closeAllConnections();
  await Promise.all([new Promise((r) => tcp.close(r)), new Promise((r) => web.close(r))]);
});
afterEach(() => {
  vi.restoreAllMocks();
});

const settle = () => new Promise((r) => setTimeout(r, 200));
const dnsError = (code: string) => Object.assign(new Error(`query ${code}`), { code });
/** Makes the default (c-ares) resolver answer from a table instead of the network. */
function answer(v4: string[] | string, v6: string[] | string) {
  const reply = (value: string[] | string) => async () => {
    if (typeof value === "string") throw dnsError(value);
    return value as never;
  };
  return {
    a: vi.spyOn(DnsResolver.prototype, "resolve4").mockImplementation(reply(v4)),
    aaaa: vi.spyOn(DnsResolver.prototype, "resolve6").mockImplementation(reply(v6)),
  };
}

describe("sendWebhook: resolving counts against the attempt's total timeout", () => {
  it("ends an attempt whose resolver never answers, and never connects", async () => {
    let signal: AbortSignal | undefined;
    const started = Date.now();
    const result = await sendWebhook(
      `http://silent.example.test:${ports.tcp}/`,
      "{}",
      {},
      {
        allowLoopback: true,
        responseTimeoutMs: 300,
        resolve: (_host, s) => {
          signal = s;
          return new Promise(() => {});
        },
      },
    );
    expect(result).toEqual({
      ok: false,
      statusCode: null,
      error: "DNS: the lookup of silent.example.test timed out",
      body: "",
    });
    expect(signal?.aborted).toBe(true);
    expect(Date.now() - started).toBeLessThan(9_000);
    await settle();
    expect(connections).toBe(0);
  }, 20_000);

  it("ignores an answer that arrives after the deadline", async () => {
    const result = await sendWebhook(
      `http://late.example.test:${ports.tcp}/`,
      "{}",
      {},
      {
        allowLoopback: true,
        responseTimeoutMs: 200,
        resolve: (_host, signal) =>
          new Promise((resolve) =>
            signal.addEventListener("abort", () => resolve([{ address: "127.0.0.1", family: 4 }])),
          ),
      },
    );
    expect(result.error).toMatch(/^DNS: the lookup of .* timed out$/);
    await settle();
    expect(connections).toBe(0);
  });

  it("asks DNS through a c-ares Resolver by default, and cancels it at the deadline", async () => {
    const query = DnsResolver.prototype.resolve4;
    // Points this attempt's own Resolver at the silent name server; the query itself is real.
    vi.spyOn(DnsResolver.prototype, "resolve4").mockImplementation(function (this: DnsResolver, name) {
      this.setServers([`127.0.0.1:${ports.udp}`]);
      return Reflect.apply(query, this, [name]) as never;
    });
    const cancel = vi.spyOn(DnsResolver.prototype, "cancel");
    const result = await sendWebhook(
      `http://hangs.example.test:${ports.tcp}/`,
      "{}",
      {},
      {
        allowLoopback: true,
        responseTimeoutMs: 500,
      },
    );
    expect(result.error).toMatch(/^DNS: the lookup of .* timed out$/);
    expect(cancel).toHaveBeenCalled();
    await vi.waitFor(() => expect(queries.some((q) => q.includes("hangs"))).toBe(true), { timeout: 10_000 });
    await settle();
    expect(connections).toBe(0);
  });
});

describe("sendWebhook: the default resolver", () => {
  it("uses A answers when there are no AAAA records", async () => {
    const { a } = answer(["127.0.0.1"], "ENODATA");
    const target = `http://hooks.example.test:${ports.web}/`;
    const result = await sendWebhook(target, "{}", {}, { allowLoopback: true });
    expect(result).toMatchObject({ ok: true, statusCode: 204 });
    expect(a).toHaveBeenCalledWith("hooks.example.test");
    expect(hosts.at(-1)).toBe(`hooks.example.test:${ports.web}`);
  });

  it("checks AAAA answers too, even when the A query fails", async () => {
    answer("ENODATA", ["::1"]);
    const result = await sendWebhook("http://six.example.test/", "{}", {});
    expect(result.error).toMatch(/not sent: .*loopback address \(::1\)/);
  });

  it("refuses a name when any of its A or AAAA answers is private", async () => {
    answer(["93.184.216.34"], ["fd00::7"]);
    const result = await sendWebhook("http://mixed.example.test/", "{}", {});
    expect(result.error).toMatch(/not sent: .*private/);
  });

  it("reports a name that does not exist", async () => {
    answer("ENOTFOUND", "ENOTFOUND");
    const result = await sendWebhook("http://nowhere.example.test/", "{}", {});
    expect(result.error).toBe("DNS: no such host (nowhere.example.test)");
  });
});

describe("sendWebhook: localhost (RFC 6761)", () => {
  it.each(["localhost", "LOCALHOST.", "api.localhost"])(
    "treats %s as loopback without a DNS query",
    async (name) => {
      const { a, aaaa } = answer(["93.184.216.34"], "ENODATA");
      const resolve = vi.fn();
      const request = vi.spyOn(http, "request");
      const target = `http://${name}:${ports.web}/`;
      const refused = await sendWebhook(target, "{}", {}, { resolve });
      expect(refused.error).toMatch(/not sent: .*loopback address \(127\.0\.0\.1\)/);
      expect(request).not.toHaveBeenCalled();
      const sent = await sendWebhook(target, "{}", {}, { allowLoopback: true });
      expect(sent).toMatchObject({ ok: true, statusCode: 204 });
      expect(hosts.at(-1)?.toLowerCase()).toBe(`${name.toLowerCase()}:${ports.web}`);
      expect(resolve).not.toHaveBeenCalled();
      expect(a).not.toHaveBeenCalled();
      expect(aaaa).not.toHaveBeenCalled();
    },
  );
});
