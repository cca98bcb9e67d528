import "server-only";
import http from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import { parseIp } from "./address-policy";
import { DnsTimeout, HostRefused, pinAddress, type Resolver } from "./resolve-host";

export type SendOptions = {
  allowLoopback?: boolean;
  resolve?: Resolver;
  connectTimeoutMs?: number;
  /** The whole attempt: resolving, connecting, sending and reading the answer. */
  responseTimeoutMs?: number;
  maxBodyBytes?: number;
};

/** What one attempt came to: a status code when the receiver answered, an error in words otherwise. */
export type SendResult = { ok: boolean; statusCode: number | null; error: string | null; body: string };

const seconds = (ms: number) => `${Math.round(ms / 100) / 10} s`;
const SOCKET_ERRORS: Record<string, string> = {
  ECONNREFUSED: "connection refused",
  ECONNRESET: "connection reset by the receiver",
  EHOSTUNREACH: "host unreachable",
  ENETUNREACH: "network unreachable",
  EPIPE: "connection closed by the receiver",
  EPROTO: "TLS: protocol error",
};

/** A socket or TLS error as the log shows it: what happened, not the driver's wording. */
function inWords(error: NodeJS.ErrnoException): string {
  const known = error.code ? SOCKET_ERRORS[error.code] : undefined;
  if (known) return known;
  if (error.code && /CERT|SSL|TLS|SELF_SIGNED|VERIFY/i.test(error.code)) return `TLS: ${error.message}`;
  return error.message;
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
  const totalMs = options.responseTimeoutMs ?? 10_000;
  const totalTimer = setTimeout(() => deadline.abort(), totalMs);
  let pinned: string;
  try {
    pinned = await pinAddress(url, options, deadline.signal);
  } catch (error) {
    clearTimeout(totalTimer);
    if (error instanceof DnsTimeout) return fail(`DNS: the lookup of ${url.hostname} timed out`);
    if (!(error instanceof HostRefused)) return fail(String(error));
    return fail(error.kind === "address-refused" ? `not sent: ${error.message}` : error.message);
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
    const connectMs = options.connectTimeoutMs ?? 5_000;
    const connectTimer = setTimeout(
      () => done(fail(`could not connect within ${seconds(connectMs)}`)),
      connectMs,
    );
    deadline.signal.addEventListener("abort", () => done(fail(`timed out after ${seconds(totalMs)}`)), {
      once: true,
    });
    request.on("socket", (socket) => {
      socket.once(url.protocol === "https:" ? "secureConnect" : "connect", () => clearTimeout(connectTimer));
    });
    request.on("error", (error) => done(fail(inWords(error))));
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
        done({ ok: false, statusCode: status, error: inWords(error), body: "" }),
      );
    });
    request.end(body);
  });
}
