import http from "node:http";
import type { AddressInfo } from "node:net";

/** A round-robin HTTP load balancer in front of app instances, for tests and benchmarks. */
export type Balancer = {
  url: string;
  /** The instances to rotate over, from now on (requests in flight finish where they went). */
  setUpstreams(urls: string[]): void | Promise<void>;
  /** Requests sent to each upstream so far, and those no upstream answered (a 502). */
  stats(): { perUpstream: Record<string, number>; failed: number };
  close(): Promise<void>;
};

// Hop-by-hop headers (RFC 9110 §7.6.1) belong to one connection and are never forwarded.
const HOP_BY_HOP = new Set([
  "connection",
  "keep-alive",
  "proxy-connection",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade",
]);

function forwardable(headers: http.IncomingHttpHeaders) {
  const out: http.OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined && !HOP_BY_HOP.has(name)) out[name] = value;
  }
  return out;
}

/**
 * Listens on `port` (0: any free one) and sends each request to the next upstream in turn, streaming
 * the body both ways. It appends the client's address to X-Forwarded-For, as a real proxy does.
 */
export async function startBalancer(port = 0, upstreams: string[] = []): Promise<Balancer> {
  let targets = upstreams.map((u) => new URL(u));
  let next = 0;
  let failed = 0;
  const perUpstream: Record<string, number> = {};
  // Kept-alive upstream connections: a new TCP connection per request would be the balancer's cost, not the app's.
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  const server = http.createServer(async (req, res) => {
    const target = targets[next++ % Math.max(1, targets.length)];
    if (!target) {
      failed++;
      res.writeHead(502).end("no upstream");
      return;
    }
    perUpstream[target.origin] = (perUpstream[target.origin] ?? 0) + 1;
    const forwardedFor = [req.headers["x-forwarded-for"], req.socket.remoteAddress]
      .filter(Boolean)
      .join(", ");
    // Read whole (bodies here are small JSON), so a request can be sent again on a fresh connection.
    let body: Buffer;
    try {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      body = Buffer.concat(chunks);
    } catch {
      res.destroy();
      return;
    }
    const send = (attempt: number) => {
      const upstream = http.request(
        {
          host: target.hostname,
          port: target.port,
          method: req.method,
          path: req.url,
          headers: { ...forwardable(req.headers), "x-forwarded-for": forwardedFor },
          agent,
        },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.statusMessage, forwardable(answer.headers));
          answer.pipe(res);
          answer.on("error", () => res.destroy());
        },
      );
      upstream.on("error", (error: NodeJS.ErrnoException) => {
        // A kept-alive connection the upstream closed as it was reused (its idle timeout) never carried
        // the request: sent again on another, as Node's documentation advises and proxies do.
        if (upstream.reusedSocket && error.code === "ECONNRESET" && !res.headersSent && attempt < 2) {
          send(attempt + 1);
          return;
        }
        failed++;
        // Before the head went out the client gets a 502; after it, only a cut connection tells the truth.
        if (res.headersSent) res.destroy();
        else res.writeHead(502).end("upstream failed");
      });
      upstream.end(body);
    };
    send(0);
  });
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, () => resolve());
  });
  const bound = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${bound}`,
    setUpstreams(urls) {
      targets = urls.map((u) => new URL(u));
    },
    stats: () => ({ perUpstream: { ...perUpstream }, failed }),
    async close() {
      agent.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
