import http from "node:http";
import type { AddressInfo } from "node:net";

type Delivery = { headers: Record<string, string>; body: string };

/**
 * A receiver on 127.0.0.1, which the devnet (and only the devnet) lets webhooks reach. It answers
 * `status` with `reply` as its body, and keeps what it was sent.
 */
export async function startReceiver(path = "/hooks/feedback", status = 204, reply = "") {
  const received: Delivery[] = [];
  const server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => {
      body += chunk;
    });
    req.on("end", () => {
      received.push({ headers: req.headers as Record<string, string>, body });
      res.writeHead(status).end(reply);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`;
  const close = () => {
    server.closeAllConnections();
    return new Promise((resolve) => server.close(resolve));
  };
  return { url, received, close };
}

/** A loopback URL where nothing listens: every attempt there is refused. */
export async function closedPortUrl() {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return `http://127.0.0.1:${port}/hooks/gone`;
}
