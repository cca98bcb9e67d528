import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { Socket } from "node:net";

/**
 * What the front does with one facilitator request (POST /verify, POST /settle, GET /supported). A refused
 * connection is answered 502, as a reverse proxy does; a facilitator dying mid-request closes the caller's.
 */
export type FrontFault =
  | { kind: "pass" } // forward it and relay the answer
  | { kind: "hold"; ms: number } // forward it after `ms`: the facilitator acts after the caller gave up
  | { kind: "late"; ms: number } // forward it now, relay the answer after `ms`: acted, answered late
  | { kind: "answer"; status: number; body: unknown } // without forwarding: nothing reached the facilitator
  // forward it, and answer `status` and `body()` after `ms` without waiting for the facilitator: one that
  // broadcasts and answers before its transaction is mined
  | { kind: "answer-early"; ms: number; status: number; body: () => unknown }
  // forward it, then answer `status` and what `body` makes of the facilitator's answer
  | { kind: "rewrite"; status?: number; body: (answer: Record<string, unknown>) => unknown };

export type FrontPolicy = (call: { route: string; body: Record<string, unknown> }) => FrontFault;

export type FacilitatorFront = {
  url: string;
  setPolicy(policy: FrontPolicy): void;
  /** Requests that reached the facilitator, by route ("POST /settle"). */
  forwarded(): Record<string, number>;
  /** Stops listening (callers see their connection refused) until `accept`. */
  refuse(): Promise<void>;
  accept(): Promise<void>;
  close(): Promise<void>;
};

export const PASS: FrontPolicy = () => ({ kind: "pass" });

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** An HTTP front between the service and a facilitator, for tests of a facilitator that is slow, down or wrong. */
export async function startFacilitatorFront(target: string): Promise<FacilitatorFront> {
  let policy = PASS;
  const forwarded: Record<string, number> = {};
  const sockets = new Set<Socket>();

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString("utf8");
    const route = `${req.method} ${req.url}`;
    let body: Record<string, unknown> = {};
    try {
      body = text ? JSON.parse(text) : {};
    } catch {}
    const forward = async () => {
      forwarded[route] = (forwarded[route] ?? 0) + 1;
      const answer = await fetch(`${target}${req.url}`, {
        method: req.method,
        headers: { "content-type": "application/json" },
        body: req.method === "POST" ? text : undefined,
      });
      return { status: answer.status, text: await answer.text() };
    };
    const reply = (status: number, payload: string) => {
      if (res.destroyed) return; // the caller gave up (its timeout) while the front held the answer
      res.writeHead(status, { "content-type": "application/json" });
      res.end(payload);
    };
    const fault = policy({ route, body });
    if (fault.kind === "answer") return reply(fault.status, JSON.stringify(fault.body));
    if (fault.kind === "answer-early") {
      void forward().catch(() => {});
      await sleep(fault.ms);
      return reply(fault.status, JSON.stringify(await fault.body()));
    }
    if (fault.kind === "hold") await sleep(fault.ms);
    let answer: { status: number; text: string };
    try {
      answer = await forward();
    } catch (error) {
      const refused = (error as { cause?: { code?: string } }).cause?.code === "ECONNREFUSED";
      if (refused) return reply(502, JSON.stringify({ error: "bad gateway" }));
      req.socket.destroy();
      return;
    }
    if (fault.kind === "late") await sleep(fault.ms);
    if (fault.kind === "rewrite") {
      return reply(fault.status ?? 200, JSON.stringify(fault.body(JSON.parse(answer.text))));
    }
    reply(answer.status, answer.text);
  };

  const server = createServer((req, res) => {
    handle(req, res).catch(() => req.socket.destroy());
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  const listen = (port: number) =>
    new Promise<number>((resolve) =>
      server.listen(port, "127.0.0.1", () => resolve((server.address() as { port: number }).port)),
    );
  const stop = () =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      server.close(() => resolve());
    });
  const port = await listen(0);
  return {
    url: `http://127.0.0.1:${port}`,
    setPolicy(next) {
      policy = next;
    },
    forwarded: () => ({ ...forwarded }),
    refuse: stop,
    accept: async () => {
      await listen(port);
    },
    close: () => (server.listening ? stop() : Promise.resolve()),
  };
}
