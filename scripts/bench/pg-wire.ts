/**
 * What clients ask of PostgreSQL, counted by a proxy reading the frontend messages: a statement is an Execute
 * or a simple Query, a round trip a Sync or a simple Query (where a client waits), a parse a Parse.
 */
import net from "node:net";
import { sleep } from "./load";

/** Statements, round trips and parses by statement text; a round trip goes to the statement it ended. */
type Tally = [statements: number, roundTrips: number, parses: number];
type Counts = Map<string, Tally>;
const plus = (a: Tally, b: Tally, k = 1): Tally => [a[0] + k * b[0], a[1] + k * b[1], a[2] + k * b[2]];

/** The counts between two snapshots. */
export function countsBetween(before: Counts, after: Counts): Counts {
  const out: Counts = new Map();
  for (const [sql, t] of after) {
    const d = plus(t, before.get(sql) ?? [0, 0, 0], -1);
    if (d.some(Boolean)) out.set(sql, d);
  }
  return out;
}
export const total = (c: Counts) => [...c.values()].reduce((a, t) => plus(a, t), [0, 0, 0] as Tally);

const cstring = (buf: Buffer, at: number) => {
  const end = buf.indexOf(0, at);
  return { text: buf.toString("utf8", at, end), next: end + 1 };
};

/** Listens on a free local port and forwards every connection to `upstream`, counting. */
export async function startWireCounter(upstream: { host: string; port: number }) {
  const counts: Counts = new Map();
  const count = (sql: string, i: 0 | 1 | 2) => {
    const key = sql.replace(/\s+/g, " ").trim();
    const t = counts.get(key) ?? [0, 0, 0];
    t[i]++;
    counts.set(key, t);
  };
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const db = net.connect(upstream.port, upstream.host);
    sockets.add(client).add(db);
    // Per connection: prepared statement texts by name ("" is the unnamed one), and what is bound now.
    const texts = new Map<string, string>();
    let [bound, last, started, pending] = ["", "(sync)", false, Buffer.alloc(0)];
    const onMessage = (type: string, body: Buffer) => {
      if (type === "E") {
        count(bound, 0);
        last = bound;
      } else if (type === "S") count(last, 1);
      else if (type === "Q") {
        count(cstring(body, 0).text, 0);
        count(cstring(body, 0).text, 1);
      } else if (type === "P") {
        const name = cstring(body, 0);
        const text = cstring(body, name.next).text;
        texts.set(name.text, text);
        count(text, 2);
      } else if (type === "B")
        bound = texts.get(cstring(body, cstring(body, 0).next).text) ?? "(unknown prepared statement)";
    };
    client.on("data", (chunk: Buffer) => {
      db.write(chunk);
      pending = Buffer.concat([pending, chunk]);
      for (;;) {
        // Before the startup message: untyped, an SSL or GSS request (answered by one byte) or the startup.
        const typed = started ? 1 : 0;
        if (pending.length < 4 + typed + (started ? 0 : 4)) return;
        const len = pending.readInt32BE(typed);
        if (pending.length < len + typed) return;
        if (started) onMessage(String.fromCharCode(pending[0]!), pending.subarray(5, len + 1));
        else started = pending.readInt32BE(4) === 196_608; // protocol 3.0
        pending = pending.subarray(len + typed);
      }
    });
    db.pipe(client);
    const end = () => {
      for (const s of [client, db]) sockets.delete(s.destroy());
    };
    for (const s of [client, db]) s.on("error", end).on("close", end);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    /** The counts so far (a copy). */
    snapshot: (): Counts => new Map([...counts].map(([sql, t]) => [sql, [...t]])),
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
export type WireCounter = Awaited<ReturnType<typeof startWireCounter>>;

/** The statement after a leading WITH list, and the list's CTEs, found by matching parentheses. */
function mainStatement(s: string) {
  const ctes: Array<{ name: string; body: string }> = [];
  for (let i = 5; s.startsWith("with "); ) {
    const name = /^\s*"?(\w+)"?\s+as\s*(?:(?:not\s+)?materialized\s*)?\(/.exec(s.slice(i));
    if (!name) break;
    i += name[0].length;
    const from = i;
    for (let depth = 1; depth > 0 && i < s.length; i++) depth += s[i] === "(" ? 1 : s[i] === ")" ? -1 : 0;
    ctes.push({ name: name[1]!, body: s.slice(from, i - 1).trim() });
    const comma = /^\s*,/.exec(s.slice(i));
    if (!comma) return { body: s.slice(i).trim(), ctes };
    i += comma[0].length;
  }
  return { body: s, ctes };
}

/** "insert feedback (+ payments, namespaces)": a statement by its verb and the tables it touches. */
function statementLabel(sql: string): string {
  const s = sql.toLowerCase();
  if (/^(begin|commit|rollback)\b/.test(s)) return s.split(" ")[0]!;
  const { body, ctes } = mainStatement(s);
  const target = (b: string) =>
    /^(?:insert into|update|delete from|select\b.*?\bfrom)\s+"?(\w+)"?/.exec(b)?.[1];
  const verbOf = (b: string) => /^(select|insert|update|delete)\b/.exec(b)?.[1];
  // "with hook as (insert …) select … from hook": what the statement does is its CTE's write.
  const cte = ctes.find((c) => c.name === target(body));
  const [verb, main] = cte ? [verbOf(cte.body), target(cte.body)] : [verbOf(body), target(body)];
  if (!verb || !main) return body.slice(0, 40);
  const tables = new Set([...s.matchAll(/\b(?:from|into|update|join)\s+"(\w+)"/g)].map((m) => m[1]!));
  const others = [...tables].filter((t) => t !== main && !ctes.some((c) => c.name === t));
  return `${verb} ${main}${others.length ? ` (+ ${others.join(", ")})` : ""}`;
}

const round1 = (x: number) => Math.round(x * 10) / 10;

/** Calls counted one at a time, less the idle instances' own passes, measured first and subtracted pro rata. */
export async function costMeter(counter: WireCounter, idleMs: number) {
  const start = counter.snapshot();
  await sleep(idleMs);
  const idle = countsBetween(start, counter.snapshot());
  /** Per call and per label, what was sent less the idle rate over the same time; what is left ≥ 0. */
  const perCall = (sums: Counts, ms: number, n: number) => {
    const out: Counts = new Map();
    for (const [sql, t] of sums) {
      const less = plus(t, idle.get(sql) ?? [0, 0, 0], -ms / idleMs).map((v) => Math.max(0, v / n)) as Tally;
      out.set(statementLabel(sql), plus(out.get(statementLabel(sql)) ?? [0, 0, 0], less));
    }
    // Background noise the subtraction did not cancel (a pass that fell inside a call) is dropped.
    return new Map([...out].filter(([, t]) => t.some((v) => v >= 0.25)));
  };
  const share = (m: Counts) => {
    const [statements, roundTrips, parses] = total(m).map(round1) as Tally;
    return { statements, roundTrips, transactions: round1(m.get("begin")?.[0] ?? 0), parses };
  };
  /** Runs `call` `n` times; each returns the paid request, counted until `settleMs` after its answer. */
  return async (n: number, call: (i: number) => Promise<() => Promise<void>>, settleMs = 500) => {
    const [before, after]: [Counts, Counts] = [new Map(), new Map()];
    let [beforeMs, afterMs] = [0, 0];
    const add = (into: Counts, d: Counts) => {
      for (const [sql, t] of d) into.set(sql, plus(into.get(sql) ?? [0, 0, 0], t));
    };
    for (let i = 0; i < n; i++) {
      const paid = await call(i); // its 402 and its signature are not counted
      const [s0, t0] = [counter.snapshot(), performance.now()];
      await paid();
      const [s1, t1] = [counter.snapshot(), performance.now()];
      await sleep(settleMs);
      add(before, countsBetween(s0, s1));
      add(after, countsBetween(s1, counter.snapshot()));
      beforeMs += t1 - t0;
      afterMs += performance.now() - t1;
    }
    const [b, a] = [perCall(before, beforeMs, n), perCall(after, afterMs, n)];
    const byStatement = [...new Set([...b.keys(), ...a.keys()])].map((statement) => {
      const [tb, ta]: [Tally, Tally] = [b.get(statement) ?? [0, 0, 0], a.get(statement) ?? [0, 0, 0]];
      return {
        statement,
        perCall: round1(tb[0] + ta[0]),
        beforeAnswer: round1(tb[0]),
        parses: round1(tb[2] + ta[2]),
      };
    });
    byStatement.sort((x, y) => y.beforeAnswer - x.beforeAnswer || y.perCall - x.perCall);
    return { calls: n, beforeAnswer: share(b), afterAnswer: share(a), byStatement };
  };
}
export type CallCost = Awaited<ReturnType<Awaited<ReturnType<typeof costMeter>>>>;
