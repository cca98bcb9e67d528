import http from "node:http";
import type { AddressInfo } from "node:net";
import { BaseError, createPublicClient, HttpRequestError, type Transport, http as viemHttp } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isChainUnreachable } from "./failures";
import { rpcTransport } from "./rpc";

/** How the scripted node answers the next call. */
type Answer = (req: http.IncomingMessage, res: http.ServerResponse, body: { id: number }) => void;

let answer: Answer;
let connections = 0;
const seen: Array<{ authorization?: string; url?: string }> = [];
const server = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on("data", (c: Buffer) => chunks.push(c));
  req.on("end", () => {
    seen.push({ authorization: req.headers.authorization, url: req.url });
    answer(req, res, JSON.parse(Buffer.concat(chunks).toString()));
  });
});
server.on("connection", () => connections++);
let url: string;

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/rpc`;
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
});

const jsonAnswer =
  (status: number, payload: (id: number) => unknown, headers: Record<string, string> = {}): Answer =>
  (_req, res, { id }) => {
    res.writeHead(status, { "content-type": "application/json", ...headers });
    res.end(JSON.stringify(payload(id)));
  };

const clientOf = (transport: Transport) => createPublicClient({ transport });
const ours = (options: { timeout?: number } = {}) => rpcTransport(url, { retryCount: 0, ...options });
const viems = (options: { timeout?: number } = {}) => viemHttp(url, { retryCount: 0, ...options });

/** viem's error classes a failed call walks through, outermost first (not the runtime's socket errors). */
async function failureOf(transport: Transport) {
  const error = await clientOf(transport)
    .getChainId()
    .then(
      () => undefined,
      (e: unknown) => e,
    );
  expect(error).toBeInstanceOf(BaseError);
  const names: string[] = [];
  (error as BaseError).walk((e) => {
    if (e instanceof BaseError) names.push(e.name);
    return false;
  });
  return { error: error as BaseError, names, unreachable: isChainUnreachable(error) };
}

/** Both transports fail the same call with the same error classes and the same verdict. */
async function sameFailure(options: { timeout?: number } = {}) {
  const theirs = await failureOf(viems(options));
  const mine = await failureOf(ours(options));
  expect(mine.names).toEqual(theirs.names);
  expect(mine.unreachable).toBe(theirs.unreachable);
  return mine;
}

describe("chain RPC transport over node:http", () => {
  it("answers a call with its result, on one kept-alive connection", async () => {
    answer = jsonAnswer(200, (id) => ({ jsonrpc: "2.0", id, result: "0x7a69" }));
    const client = clientOf(ours());
    const before = connections;
    expect(await client.getChainId()).toBe(31337);
    expect(await client.getChainId()).toBe(31337);
    expect(await client.getChainId()).toBe(31337);
    expect(connections - before).toBe(1);
  });

  it("sends a URL's credentials as Basic authorization, not in the URL", async () => {
    answer = jsonAnswer(200, (id) => ({ jsonrpc: "2.0", id, result: "0x1" }));
    const withCredentials = url.replace("http://", "http://user:p%40ss@");
    await clientOf(rpcTransport(withCredentials, { retryCount: 0 })).getChainId();
    expect(seen.at(-1)).toEqual({
      authorization: `Basic ${Buffer.from("user:p@ss").toString("base64")}`,
      url: "/rpc",
    });
  });

  it("gives a node's JSON-RPC error the class viem gives it", async () => {
    answer = jsonAnswer(200, (id) => ({ jsonrpc: "2.0", id, error: { code: -32601, message: "nope" } }));
    const { names, unreachable } = await sameFailure();
    expect(names).toContain("MethodNotFoundRpcError");
    expect(unreachable).toBe(false);
  });

  it("reads a rate limit as unreachable, with its status and Retry-After", async () => {
    answer = (_req, res) => {
      res.writeHead(429, { "content-type": "text/plain", "retry-after": "7" });
      res.end("rate limited");
    };
    const { error, unreachable } = await sameFailure();
    expect(unreachable).toBe(true);
    const http = error.walk((e) => e instanceof HttpRequestError) as HttpRequestError;
    expect(http.status).toBe(429);
    expect(http.headers?.get("retry-after")).toBe("7");
  });

  it("keeps a JSON-RPC error answered with an HTTP error status", async () => {
    answer = jsonAnswer(500, (id) => ({ jsonrpc: "2.0", id, error: { code: -32603, message: "internal" } }));
    const { unreachable } = await sameFailure();
    expect(unreachable).toBe(true);
  });

  it("reads a connection cut before the answer as unreachable", async () => {
    answer = (req) => req.socket.destroy();
    expect((await sameFailure()).unreachable).toBe(true);
  });

  it("reads a connection cut in the middle of the answer as unreachable", async () => {
    answer = (req, res) => {
      res.writeHead(200, { "content-type": "application/json", "content-length": "100" });
      res.write('{"jsonrpc":"2.0",');
      setTimeout(() => req.socket.destroy(), 10);
    };
    expect((await sameFailure()).unreachable).toBe(true);
  });

  it("gives up on a node that does not answer in time", async () => {
    answer = () => undefined;
    const { names, unreachable } = await sameFailure({ timeout: 200 });
    expect(names).toContain("TimeoutError");
    expect(unreachable).toBe(true);
  });

  it("refuses an answer that is not JSON-RPC", async () => {
    answer = (_req, res) => {
      res.writeHead(200, { "content-type": "text/html" });
      res.end("<html>a login page</html>");
    };
    await sameFailure();
    answer = jsonAnswer(200, () => null);
    expect((await failureOf(ours())).names).toContain("HttpRequestError");
  });

  it("refuses an answer larger than 10 MiB without keeping it", async () => {
    answer = (_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(`{"jsonrpc":"2.0","id":0,"result":"${"a".repeat(11 * 1024 * 1024)}"}`);
    };
    const { names } = await failureOf(ours());
    expect(names).toContain("ResponseBodyTooLargeError");
  });
});
