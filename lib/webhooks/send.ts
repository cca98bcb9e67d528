import "server-only";
import { Resolver as DnsResolver } from "node:dns/promises";
import http from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import { checkAddress, parseIp } from "./address-policy";

type Address = { address: string; family: number };

/** Resolves a host name to every address it has; `signal` aborts when the attempt runs out of time. */
export type Resolver = (hostname: string, signal: AbortSignal) => Promise<Address[]>;

export type SendOptions = {
  allowLoopback?: boolean;
  resolve?: Resolver;
  connectTimeoutMs?: number;
  /** The whole attempt: resolving, connecting, sending and reading the answer. */
  responseTimeoutMs?: number;
  maxBodyBytes?: number;
};

/** What one attempt came to: a status code when the receiver answered, an error otherwise. */
export type SendResult = { ok: boolean; statusCode: number | null; error: string | null; body: string };

// Per query and server; the attempt's total timeout still bounds the whole resolution.
const DNS_QUERY_TIMEOUT_MS = 5_000;
// RFC 6761: these names are loopback and never sent to DNS (c-ares does not read /etc/hosts).
const LOOPBACK: Address[] = [
  { address: "127.0.0.1", family: 4 },
  { address: "::1", family: 6 },
];

/**
 * The default resolver: c-ares A and AAAA queries, never dns.lookup, whose getaddrinfo runs on the
 * libuv thread pool that fetch needs for the chain RPCs. Aborting `signal` cancels the queries.
 */
const resolveWithCares: Resolver = async (hostname, signal) => {
  const resolver = new DnsResolver({ timeout: DNS_QUERY_TIMEOUT_MS, tries: 1 });
  const cancel = () => resolver.cancel();
  signal.addEventListener("abort", cancel, { once: true });
  try {
    const [v4, v6] = await Promise.allSettled([resolver.resolve4(hostname), resolver.resolve6(hostname)]);
    const found = [
      ...(v4.status === "fulfilled" ? v4.value.map((address) => ({ address, family: 4 })) : []),
      ...(v6.status === "fulfilled" ? v6.value.map((address) => ({ address, family: 6 })) : []),
    ];
    const errors = [v4, v6].flatMap((r) =>
      r.status === "rejected" ? [r.reason as NodeJS.ErrnoException] : [],
    );
    // A name may have only one family: ENODATA for the other says nothing, so report the more telling error.
    if (found.length === 0 && errors.length > 0) throw errors.find((e) => e.code !== "ENODATA") ?? errors[0];
    return found;
  } finally {
    signal.removeEventListener("abort", cancel);
  }
};

class Refused extends Error {}
class DnsTimeout extends Error {}

/** `promise`, or a DnsTimeout as soon as `signal` aborts: a late answer is never used. */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new DnsTimeout());
    if (signal.aborted) return onAbort();
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}

/** The host's addresses: a literal as is, localhost as loopback without a query, any other name resolved. */
function addressesOf(host: string, resolve: Resolver, signal: AbortSignal): Promise<Address[]> {
  if (parseIp(host) !== null) return Promise.resolve([{ address: host, family: 0 }]);
  const name = host.toLowerCase().replace(/\.$/, "");
  if (name === "localhost" || name.endsWith(".localhost")) return Promise.resolve(LOOPBACK);
  return untilAborted(resolve(host, signal), signal);
}

/** Resolves the URL's host once and returns the one address to connect to, or throws Refused. */
async function pinAddress(url: URL, options: SendOptions, signal: AbortSignal): Promise<string> {
  const host = url.hostname.replace(/^\[(.*)\]$/, "$1");
  let addresses: string[];
  try {
    addresses = (await addressesOf(host, options.resolve ?? resolveWithCares, signal)).map((a) => a.address);
  } catch (error) {
    if (error instanceof DnsTimeout) throw error;
    throw new Refused(`cannot resolve ${host}: ${(error as Error).message}`);
  }
  if (addresses.length === 0) throw new Refused(`${host} has no address`);
  // Every answer must pass: a name that also resolves to a private address is refused outright.
  for (const address of addresses) {
    const verdict = checkAddress(address, options);
    if (!verdict.allowed) throw new Refused(`${host} resolves to a ${verdict.reason} address (${address})`);
  }
  return addresses[0]!;
}

/**
 * POSTs a webhook body: only http(s), the host resolved once and the socket pinned to a checked
 * address (SNI and Host keep the name), redirects never followed, connect and total timeouts (the
 * total covers resolving), and at most `maxBodyBytes` of the answer read. Never throws.
 */
export async function sendWebhook(
  target: string,
  body: string,
  headers: Record<string, string>,
  options: SendOptions = {},
): Promise<SendResult> {
  const fail = (error: string): SendResult => ({ ok: false, statusCode: null, error, body: "" });
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    return fail("not a URL");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return fail("only http(s) URLs are allowed");
  const deadline = new AbortController();
  const totalTimer = setTimeout(() => deadline.abort(), options.responseTimeoutMs ?? 10_000);
  let pinned: string;
  try {
    pinned = await pinAddress(url, options, deadline.signal);
    if (deadline.signal.aborted) throw new DnsTimeout();
  } catch (error) {
    clearTimeout(totalTimer);
    if (error instanceof DnsTimeout) return fail("dns timeout");
    return fail(error instanceof Refused ? `refused: ${error.message}` : String(error));
  }
  const family = pinned.includes(":") ? 6 : 4;
  const lookup: LookupFunction = (_host, opts, callback) => {
    if ((opts as { all?: boolean }).all) {
      (callback as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, [
        { address: pinned, family },
      ]);
    } else callback(null, pinned, family);
  };
  const client = url.protocol === "https:" ? https : http;
  const hostname = url.hostname.replace(/^\[(.*)\]$/, "$1");
  const maxBody = options.maxBodyBytes ?? 64 * 1024;

  return new Promise<SendResult>((resolve) => {
    let settled = false;
    const done = (result: SendResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(connectTimer);
      clearTimeout(totalTimer);
      request.destroy();
      resolve(result);
    };
    const request = client.request({
      method: "POST",
      protocol: url.protocol,
      host: hostname,
      port: url.port || undefined,
      path: `${url.pathname}${url.search}`,
      lookup,
      ...(url.protocol === "https:" && parseIp(hostname) === null ? { servername: hostname } : {}),
      agent: false,
      headers: {
        ...headers,
        "content-type": "application/json",
        "content-length": Buffer.byteLength(body).toString(),
        "user-agent": "feedback-service-webhooks/1",
      },
    });
    const connectTimer = setTimeout(() => done(fail("connect timeout")), options.connectTimeoutMs ?? 5_000);
    deadline.signal.addEventListener("abort", () => done(fail("response timeout")), { once: true });
    request.on("socket", (socket) => {
      socket.once(url.protocol === "https:" ? "secureConnect" : "connect", () => clearTimeout(connectTimer));
    });
    request.on("error", (error) => done(fail(error.message)));
    request.on("response", (response) => {
      const status = response.statusCode ?? 0;
      const chunks: Buffer[] = [];
      let size = 0;
      const finish = () =>
        done({
          // 3xx is a failure: a redirect is never followed, it could point anywhere.
          ok: status >= 200 && status < 300,
          statusCode: status,
          error: status >= 200 && status < 300 ? null : `HTTP ${status}`,
          body: Buffer.concat(chunks).toString("utf8"),
        });
      response.on("data", (chunk: Buffer) => {
        const room = maxBody - size;
        if (room > 0) chunks.push(chunk.subarray(0, room));
        size += chunk.length;
        if (size >= maxBody) finish();
      });
      response.on("end", finish);
      response.on("error", (error) =>
        done({ ok: false, statusCode: status, error: error.message, body: "" }),
      );
    });
    request.end(body);
  });
}
