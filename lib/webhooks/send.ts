import "server-only";
import { lookup as dnsLookup } from "node:dns/promises";
import http from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import { checkAddress, parseIp } from "./address-policy";

/** Resolves a host name to every address it has (dns.lookup with all: true by default). */
export type Resolver = (hostname: string) => Promise<{ address: string; family: number }[]>;

export type SendOptions = {
  allowLoopback?: boolean;
  resolve?: Resolver;
  connectTimeoutMs?: number;
  responseTimeoutMs?: number;
  maxBodyBytes?: number;
};

/** What one attempt came to: a status code when the receiver answered, an error otherwise. */
export type SendResult = { ok: boolean; statusCode: number | null; error: string | null; body: string };

const defaultResolve: Resolver = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

class Refused extends Error {}

/** Resolves the URL's host once and returns the one address to connect to, or throws Refused. */
async function pinAddress(url: URL, options: SendOptions): Promise<string> {
  const host = url.hostname.replace(/^\[(.*)\]$/, "$1");
  const literal = parseIp(host) !== null;
  let addresses: string[];
  try {
    addresses = literal ? [host] : (await (options.resolve ?? defaultResolve)(host)).map((a) => a.address);
  } catch (error) {
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
 * address (SNI and Host keep the name), redirects never followed, connect and response timeouts,
 * and at most `maxBodyBytes` of the answer read. Never throws.
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
  let pinned: string;
  try {
    pinned = await pinAddress(url, options);
  } catch (error) {
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
    const totalTimer = setTimeout(() => done(fail("response timeout")), options.responseTimeoutMs ?? 10_000);
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
