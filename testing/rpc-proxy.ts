import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { Socket } from "node:net";

/** What the proxy does with one JSON-RPC request. */
type Fault =
  | { kind: "pass" } // forward it and relay the answer
  | { kind: "delay"; ms: number } // the same, later
  | { kind: "drop" } // never answer: the caller's timeout decides
  | { kind: "cut" } // close the connection without forwarding
  | { kind: "cut-after-forward" } // forward it (the chain acts on it), close before answering
  | { kind: "http-429" } // answer this status (or 500, below) without forwarding
  | { kind: "http-500" }
  | { kind: "rpc-error"; code: number; message: string } // without forwarding: a node that lacks a method
  | { kind: "hold"; until: Promise<unknown> } // forward once `until` settles: a test acts meanwhile
  | { kind: "answer-held"; until: Promise<unknown> } // forward at once (the chain acts on it), answer once `until` settles
  | { kind: "rewrite"; params?: unknown[]; result?: (result: unknown) => unknown } // a node with another view
  | { kind: "reply"; result: unknown }; // answer a result without forwarding

export type FaultPolicy = (call: { method: string; params: unknown[]; n: number }) => Fault;

export type RpcProxy = {
  url: string;
  /** Replaces the policy; every later request follows it. */
  setPolicy(policy: FaultPolicy): void;
  /** Requests seen, and faults injected, by kind. */
  stats(): { requests: number; faults: Record<string, number> };
  close(): Promise<void>;
};

export const PASS: FaultPolicy = () => ({ kind: "pass" });

/**
 * A JSON-RPC proxy in front of a chain, for tests of a bad network: it forwards, delays, drops, cuts or
 * refuses requests as its policy says. Only tests use it; it forwards to one local node.
 */
export async function startRpcProxy(target: string, policy: FaultPolicy = PASS): Promise<RpcProxy> {
  let current = policy;
  let requests = 0;
  const faults: Record<string, number> = {};
  const sockets = new Set<Socket>();

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString("utf8");
    let call: { id?: unknown; method?: string; params?: unknown[] } = {};
    try {
      const parsed = JSON.parse(body) as typeof call | (typeof call)[];
      call = (Array.isArray(parsed) ? parsed[0] : parsed) ?? {};
    } catch {}
    const fault = current({ method: call.method ?? "?", params: call.params ?? [], n: requests++ });
    if (fault.kind !== "pass") faults[fault.kind] = (faults[fault.kind] ?? 0) + 1;
    const forward = (sent = body) =>
      fetch(target, { method: "POST", headers: { "content-type": "application/json" }, body: sent }).then(
        async (r) => ({ status: r.status, text: await r.text() }),
      );
    const answer = (result: unknown) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ jsonrpc: "2.0", id: call.id ?? null, result }));
    };
    switch (fault.kind) {
      case "reply":
        answer(fault.result);
        return;
      case "rewrite": {
        const sent = fault.params ? JSON.stringify({ ...call, params: fault.params }) : body;
        try {
          const got = JSON.parse((await forward(sent)).text) as { result?: unknown; error?: unknown };
          if (got.error !== undefined || !fault.result) {
            res.writeHead(200, { "content-type": "application/json" });
            res.end(JSON.stringify({ ...got, id: call.id ?? null }));
          } else answer(fault.result(got.result));
        } catch {
          req.socket.destroy();
        }
        return;
      }
      case "drop":
        return; // the socket stays open and silent
      case "cut":
        req.socket.destroy();
        return;
      case "http-429":
      case "http-500":
        res.writeHead(fault.kind === "http-429" ? 429 : 500, { "content-type": "text/plain" });
        res.end(fault.kind === "http-429" ? "rate limited" : "internal error");
        return;
      case "rpc-error":
        res.writeHead(200, { "content-type": "application/json" });
        res.end(
          JSON.stringify({
            jsonrpc: "2.0",
            id: call.id ?? null,
            error: { code: fault.code, message: fault.message },
          }),
        );
        return;
      case "cut-after-forward":
        await forward().catch(() => {});
        req.socket.destroy();
        return;
      case "answer-held": {
        const answered = forward();
        await fault.until.catch(() => {});
        try {
          const answer = await answered;
          res.writeHead(answer.status, { "content-type": "application/json" });
          res.end(answer.text);
        } catch {
          req.socket.destroy();
        }
        return;
      }
      case "delay":
        await new Promise((r) => setTimeout(r, fault.ms));
        break;
      case "hold":
        await fault.until.catch(() => {});
        break;
    }
    try {
      const answer = await forward();
      res.writeHead(answer.status, { "content-type": "application/json" });
      res.end(answer.text);
    } catch {
      req.socket.destroy();
    }
  };

  const server = createServer((req, res) => {
    handle(req, res).catch(() => req.socket.destroy());
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    setPolicy(next) {
      current = next;
    },
    stats: () => ({ requests, faults: { ...faults } }),
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
