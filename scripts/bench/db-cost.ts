/** The database's share of one paid call: statements and round trips, counted on the wire. */
import { sleep } from "./common";
import { countsBetween, type WireCounter, type WireCounts, type WireTally } from "./pg-wire-counter";

type Share = { statements: number; roundTrips: number; transactions: number; parses: number };

export type CallCost = {
  calls: number;
  /** Sent while the client waited for its answer. */
  beforeAnswer: Share;
  /** Sent after the answer, by work the call left running (grouping a report, webhooks). */
  afterAnswer: Share;
  /** Each statement per call, by verb and tables, with the part of it sent before the answer and its parses. */
  byStatement: Array<{ statement: string; perCall: number; beforeAnswer: number; parses: number }>;
};

const round1 = (x: number) => Math.round(x * 10) / 10;

type Cte = { name: string; body: string };

/** The statement after a leading WITH list, and the list's CTEs, found by matching parentheses. */
function mainStatement(s: string): { body: string; ctes: Cte[] } {
  if (!s.startsWith("with ")) return { body: s, ctes: [] };
  const ctes: Cte[] = [];
  let i = 5;
  for (;;) {
    const name = /^\s*"?(\w+)"?\s+as\s*(?:(?:not\s+)?materialized\s*)?\(/.exec(s.slice(i));
    if (!name) return { body: s, ctes };
    i += name[0].length;
    const from = i;
    for (let depth = 1; depth > 0 && i < s.length; i++) depth += s[i] === "(" ? 1 : s[i] === ")" ? -1 : 0;
    ctes.push({ name: name[1]!, body: s.slice(from, i - 1).trim() });
    const comma = /^\s*,/.exec(s.slice(i));
    if (!comma) return { body: s.slice(i).trim(), ctes };
    i += comma[0].length;
  }
}

/** "insert feedback (+ payments, namespaces, webhook_deliveries)": a statement by verb and the tables it reads. */
function statementLabel(sql: string): string {
  const s = sql.toLowerCase();
  if (/^(begin|commit|rollback)\b/.test(s)) return s.split(" ")[0]!;
  const { body, ctes } = mainStatement(s);
  const target = (b: string) =>
    /^(?:insert into|update|delete from|select\b.*?\bfrom)\s+"?(\w+)"?/.exec(b)?.[1];
  let main = target(body);
  // "with hook as (insert …) select … from hook": what the statement does is its CTE's write.
  let verb = /^(select|insert|update|delete)\b/.exec(body)?.[1];
  const cte = ctes.find((c) => c.name === main);
  if (cte) {
    main = target(cte.body);
    verb = /^(select|insert|update|delete)\b/.exec(cte.body)?.[1];
  }
  if (!verb || !main) return body.slice(0, 40);
  const names = ctes.map((c) => c.name);
  const tables = [...s.matchAll(/\b(?:from|into|update|join)\s+"(\w+)"/g)].map((m) => m[1]!);
  const others = [...new Set(tables)].filter((t) => t !== main && !names.includes(t));
  return `${verb} ${main}${others.length ? ` (+ ${others.join(", ")})` : ""}`;
}

/**
 * Counts calls made one at a time through `counter`, less what the instances do when idle (their
 * webhook worker and recovery passes), measured first over `idleMs` and subtracted pro rata.
 */
export async function costMeter(counter: WireCounter, idleMs: number) {
  const start = counter.snapshot();
  await sleep(idleMs);
  const idle = countsBetween(start, counter.snapshot());
  return {
    /** Runs `call` `n` times; each returns the paid request, counted until `settleMs` after its answer. */
    async measure(n: number, call: (i: number) => Promise<() => Promise<void>>, settleMs = 500) {
      const before = new Map<string, WireTally>();
      const after = new Map<string, WireTally>();
      let beforeMs = 0;
      let afterMs = 0;
      for (let i = 0; i < n; i++) {
        const paid = await call(i); // its 402 and its signature are not counted
        const s0 = counter.snapshot();
        const t0 = performance.now();
        await paid();
        const s1 = counter.snapshot();
        const t1 = performance.now();
        await sleep(settleMs);
        add(before, countsBetween(s0, s1));
        add(after, countsBetween(s1, counter.snapshot()));
        beforeMs += t1 - t0;
        afterMs += performance.now() - t1;
      }
      const perCall = (sums: Map<string, WireTally>, ms: number) => lessIdle(sums, idle, ms / idleMs, n);
      return costOf(perCall(before, beforeMs), perCall(after, afterMs), n);
    },
  };
}

function add(into: Map<string, WireTally>, d: WireCounts) {
  for (const [sql, t] of d.byStatement) {
    const sum = into.get(sql) ?? { statements: 0, roundTrips: 0, parses: 0 };
    into.set(sql, {
      statements: sum.statements + t.statements,
      roundTrips: sum.roundTrips + t.roundTrips,
      parses: sum.parses + t.parses,
    });
  }
}

/** Per call and per label, what was sent less the idle rate over the same time; what is left ≥ 0. */
function lessIdle(sums: Map<string, WireTally>, idle: WireCounts, idleShare: number, n: number) {
  const out = new Map<string, WireTally>();
  for (const [sql, t] of sums) {
    const i = idle.byStatement.get(sql) ?? { statements: 0, roundTrips: 0, parses: 0 };
    const label = statementLabel(sql);
    const o = out.get(label) ?? { statements: 0, roundTrips: 0, parses: 0 };
    o.statements += Math.max(0, (t.statements - i.statements * idleShare) / n);
    o.roundTrips += Math.max(0, (t.roundTrips - i.roundTrips * idleShare) / n);
    o.parses += Math.max(0, (t.parses - i.parses * idleShare) / n);
    out.set(label, o);
  }
  // Background noise the subtraction did not cancel (a pass that fell inside a call) is dropped.
  for (const [label, o] of out) {
    if (o.statements < 0.25 && o.roundTrips < 0.25 && o.parses < 0.25) out.delete(label);
  }
  return out;
}

function costOf(before: Map<string, WireTally>, after: Map<string, WireTally>, n: number): CallCost {
  const share = (m: Map<string, WireTally>): Share => {
    const all = [...m.values()];
    return {
      statements: round1(all.reduce((a, t) => a + t.statements, 0)),
      roundTrips: round1(all.reduce((a, t) => a + t.roundTrips, 0)),
      transactions: round1(m.get("begin")?.statements ?? 0),
      parses: round1(all.reduce((a, t) => a + t.parses, 0)),
    };
  };
  const labels = new Set([...before.keys(), ...after.keys()]);
  const byStatement = [...labels]
    .map((statement) => {
      const b = before.get(statement)?.statements ?? 0;
      return {
        statement,
        perCall: round1(b + (after.get(statement)?.statements ?? 0)),
        beforeAnswer: round1(b),
        parses: round1((before.get(statement)?.parses ?? 0) + (after.get(statement)?.parses ?? 0)),
      };
    })
    .sort((a, b) => b.beforeAnswer - a.beforeAnswer || b.perCall - a.perCall);
  return { calls: n, beforeAnswer: share(before), afterAnswer: share(after), byStatement };
}
