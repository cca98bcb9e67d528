/**
 * A TCP proxy in front of PostgreSQL that counts what clients ask of it, read from the wire protocol
 * (frontend messages only; nothing is logged, and nothing kept but statement texts and counts). A statement is
 * an Execute or a simple Query; a round trip is a Sync or a simple Query, the points where a client
 * waits for the server; a parse is a Parse (the server parses the text, and plans it when it is bound:
 * a statement prepared on its connection is parsed once there, an unprepared one on every call).
 */
import net from "node:net";

/** Statements, round trips and parses; a round trip is put down to the statement it ended. */
export type WireTally = { statements: number; roundTrips: number; parses: number };
export type WireCounts = WireTally & { byStatement: Map<string, WireTally> };

export type WireCounter = {
  port: number;
  /** The counts so far (a copy). */
  snapshot(): WireCounts;
  close(): Promise<void>;
};

const PROTOCOL_3 = 196_608;

/** The statements and round trips between two snapshots. */
export function countsBetween(before: WireCounts, after: WireCounts): WireCounts {
  const byStatement = new Map<string, WireTally>();
  for (const [sql, n] of after.byStatement) {
    const b = before.byStatement.get(sql) ?? { statements: 0, roundTrips: 0, parses: 0 };
    const d = {
      statements: n.statements - b.statements,
      roundTrips: n.roundTrips - b.roundTrips,
      parses: n.parses - b.parses,
    };
    if (d.statements || d.roundTrips || d.parses) byStatement.set(sql, d);
  }
  return {
    statements: after.statements - before.statements,
    roundTrips: after.roundTrips - before.roundTrips,
    parses: after.parses - before.parses,
    byStatement,
  };
}

const cstring = (buf: Buffer, at: number) => {
  const end = buf.indexOf(0, at);
  return { text: buf.toString("utf8", at, end), next: end + 1 };
};

/** Listens on a free local port and forwards every connection to `upstream` (host:port), counting. */
export async function startWireCounter(upstream: { host: string; port: number }): Promise<WireCounter> {
  const counts: WireCounts = { statements: 0, roundTrips: 0, parses: 0, byStatement: new Map() };
  const tally = (sql: string) => {
    const key = sql.replace(/\s+/g, " ").trim();
    const t = counts.byStatement.get(key) ?? { statements: 0, roundTrips: 0, parses: 0 };
    counts.byStatement.set(key, t);
    return t;
  };
  const record = (sql: string) => {
    counts.statements++;
    tally(sql).statements++;
  };
  const trip = (sql: string) => {
    counts.roundTrips++;
    tally(sql).roundTrips++;
  };
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const db = net.connect(upstream.port, upstream.host);
    sockets.add(client).add(db);
    // Per connection: prepared statement texts by name ("" is the unnamed one), and what is bound now.
    const texts = new Map<string, string>();
    let bound = "";
    let last = "(sync)";
    let started = false;
    let pending = Buffer.alloc(0);
    const onMessage = (type: string, body: Buffer) => {
      if (type === "P") {
        const name = cstring(body, 0);
        const text = cstring(body, name.next).text;
        texts.set(name.text, text);
        counts.parses++;
        tally(text).parses++;
      } else if (type === "B") {
        const portal = cstring(body, 0);
        bound = texts.get(cstring(body, portal.next).text) ?? "(unknown prepared statement)";
      } else if (type === "E") {
        record(bound);
        last = bound;
      } else if (type === "Q") {
        record(cstring(body, 0).text);
        trip(cstring(body, 0).text);
      } else if (type === "S") trip(last);
    };
    client.on("data", (chunk: Buffer) => {
      db.write(chunk);
      pending = Buffer.concat([pending, chunk]);
      for (;;) {
        if (!started) {
          // Untyped: an SSL or GSS request (answered by one byte, then a startup again) or the startup.
          if (pending.length < 8) return;
          const len = pending.readInt32BE(0);
          if (pending.length < len) return;
          if (pending.readInt32BE(4) === PROTOCOL_3) started = true;
          pending = pending.subarray(len);
          continue;
        }
        if (pending.length < 5) return;
        const len = pending.readInt32BE(1);
        if (pending.length < len + 1) return;
        onMessage(String.fromCharCode(pending[0]!), pending.subarray(5, len + 1));
        pending = pending.subarray(len + 1);
      }
    });
    db.pipe(client);
    const end = () => {
      client.destroy();
      db.destroy();
      sockets.delete(client);
      sockets.delete(db);
    };
    for (const s of [client, db]) {
      s.on("error", end);
      s.on("close", end);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    snapshot: () => ({
      ...counts,
      byStatement: new Map([...counts.byStatement].map(([sql, t]) => [sql, { ...t }])),
    }),
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
