/** BENCHMARKS.md's "Many instances" section: the run's figures, then what they mean for other databases. */
import type { Summary } from "./common";
import type { CallCost } from "./db-cost";

type Level = {
  instances: number;
  concurrency: number;
  requests: number;
  ok: number;
  rps: number;
  latency: Summary;
  requestsPerInstance: number[];
  db: { statementsPerCall: number; roundTripsPerCall: number };
};
type Instances = {
  levels: Level[];
  perCall: Record<string, CallCost>;
  paidRequests: number;
  unanswered: number;
  reconciliation: Record<string, number | string[]>;
};

// Counted on the wire while this section was written (and matching the code path), for runs that did not count.
const COUNTED_BEFORE: Record<string, number> = {
  "x402 submission": 3,
  "MPP submission": 4,
  "x402 rewarded resolve": 26,
};

function levelsTable(levels: Level[]): string {
  return [
    "| instances | concurrency | ok / sent | req/s | p50 ms | p95 ms | requests per instance (402s included, from the balancer) | DB statements / round trips per call |",
    "|---:|---:|---:|---:|---:|---:|---|---|",
    ...levels.map(
      (l) =>
        `| ${l.instances} | ${l.concurrency} | ${l.ok} / ${l.requests} | ${l.rps} | ${l.latency.p50} | ${l.latency.p95} | ${l.requestsPerInstance.join(" / ")} | ${l.db.statementsPerCall} / ${l.db.roundTripsPerCall} |`,
    ),
  ].join("\n");
}

function costTable(perCall: Record<string, CallCost>): string {
  const rows = Object.entries(perCall).map(([call, c]) => {
    const list = c.byStatement
      .filter((s) => s.beforeAnswer >= 0.5)
      .map((s) => `${s.statement} ×${s.beforeAnswer}`)
      .join("; ");
    // Results from before parses were counted have none to show.
    const parsed = (s: { parses?: number }) => s.parses ?? "–";
    return `| ${call} | ${c.beforeAnswer.statements} / ${c.beforeAnswer.roundTrips} / ${c.beforeAnswer.transactions} | ${c.afterAnswer.statements} / ${c.afterAnswer.transactions} | ${parsed(c.beforeAnswer)} / ${parsed(c.afterAnswer)} | ${list} |`;
  });
  return [
    "| call (one at a time) | before the answer: statements / round trips / transactions | after it: statements / transactions | statements parsed (and planned anew) per call: before / after the answer | statements before the answer, per call |",
    "|---|---|---|---|---|",
    ...rows,
  ].join("\n");
}

/** Added latency and one pooled connection's ceiling, from the round trips a call waits for. */
function onPaper(trips: Array<{ call: string; rt: number }>, measured: boolean): string {
  return [
    `| call | round trips before the answer (${measured ? "measured" : "counted in development, not in this run"}) | + latency at 1 ms RTT | at 5 ms | at 10 ms | calls/s one pooled connection carries at 10 ms |`,
    "|---|---:|---:|---:|---:|---:|",
    ...trips.map(
      ({ call, rt }) =>
        `| ${call} | ${rt} | ${Math.round(rt)} ms | ${Math.round(rt * 5)} ms | ${Math.round(rt * 10)} ms | ${Math.floor(1000 / (rt * 10))} |`,
    ),
  ].join("\n");
}

/** The section: measured figures when the run had DATABASE_URL, and the analysis either way. */
export function instancesSection(raw: unknown): string {
  const data = raw as Instances | { skipped: string } | { error: string } | undefined;
  let figures = "_not measured in this run (`BENCH_SECTIONS=instances`, with `DATABASE_URL`)_";
  let perCall: Record<string, CallCost> | undefined;
  if (data && "skipped" in data) figures = `_${data.skipped}_`;
  else if (data && "error" in data) figures = `failed: ${data.error}`;
  else if (data) {
    perCall = data.perCall;
    const r = data.reconciliation;
    const zero = [
      "lostWrites",
      "unpaidStores",
      "doubleCharges",
      "doublePayouts",
      "doubleRefunds",
      "openClaims",
      "openPayouts",
    ];
    figures = `${levelsTable(data.levels)}

Reconciliation after the levels, over every paid call of the section (${data.paidRequests}, warm-ups and the calls below included; ${data.unanswered} without a stored answer): ${r.chargesOnChain} charges on chain, ${r.writesStored} writes stored, ${r.refunds} refunds; ${zero.map((k) => `${k} ${r[k]}`).join(", ")}.

Database cost per paid call, counted on the wire between the instances and PostgreSQL (one instance, one call at a time, the idle instance's own passes subtracted):

${costTable(data.perCall)}

"Before the answer" is what reached PostgreSQL before the client had read its answer. A paid submission
starts grouping its report once its answer has gone out (Next.js's \`after\`): that statement, prepared,
can still reach the database before the client has read the answer and is then counted before it,
though the answer never waits for it. A statement parsed per call is one sent unprepared (or on a connection new
to it): PostgreSQL parses and plans it anew each time.`;
  }
  const trips = Object.entries(COUNTED_BEFORE).map(([call, fallback]) => ({
    call,
    rt: perCall?.[call]?.beforeAnswer.roundTrips ?? fallback,
  }));
  return `## Many instances (\`next start\` behind a round-robin balancer, one PostgreSQL)

${figures}

${ANALYSIS(onPaper(trips, perCall !== undefined), trips[0]!.rt)}`;
}

const ANALYSIS = (
  table: string,
  submitTrips: number,
) => `**Method.** \`BENCH_SECTIONS=instances\` (scripts/bench/instances.ts) makes a fresh database on the
\`DATABASE_URL\` server and a devnet of its own, and puts 1, then 2, then 4 \`next start\` instances behind a
round-robin balancer (e2e/chaos/balancer.ts, node:http, bodies streamed) that is their one public origin. Each
level is paid x402 submissions at a fixed concurrency through the balancer, after an untimed warm-up that reaches
every instance; then the ledger is reconciled against both chains (e2e/chaos/reconcile.ts). The instances reach
PostgreSQL through a counting proxy (scripts/bench/pg-wire-counter.ts) that reads the wire protocol: a statement
is an Execute or a simple Query, a round trip a Sync or a simple Query. "Per call" at a level divides everything
sent during it, background passes and the grouping after each answer included, by the calls that succeeded. The
\`chaos\` Playwright project runs the same cluster with four instances (e2e/chaos/instances.spec.ts). All instances
share two cores with the load generator, the chains and PostgreSQL here, so req/s cannot grow with instances on
this machine; what the levels show is that spreading the load changes nothing in the ledger.

**What a paid call asks of the database.** postgres.js sends each statement with its own Sync, so statements
equal round trips. A submission waits for three: the per-address rate-limit counter, the ledger claim (one
\`INSERT … ON CONFLICT DO NOTHING\` on the unique payment key) and the store (one statement: the item, the ledger
row's fulfilment as a CTE, the webhook outbox); MPP the same, the ledger's claim being its replay guard. Grouping
the new report with its duplicates, one statement, starts as the answer leaves (when it gets in before the client
has read the answer, it shows as a fraction "before the answer"). A rewarded resolve asks for several times as many: its
checks, a claim that holds the item, the resolution's transaction, and the payout on Tempo, which the answer waits
for.

**Nothing is held across a chain call** (lib/payment/paid.ts, ledger.ts, lib/domain/rewards): the claim commits
before settlement starts (a rewarded resolve's claim also holds its item, in a transaction that commits first);
settlement talks only to the chain; the store runs after the money moved; a payout commits its signed bytes,
then broadcasts. The item a rewarded resolve is buying is held by a column set with a conditional \`UPDATE\`, not
by a row lock, so another buyer is refused at once rather than left waiting. Row locks last one statement's
server time (grouping included: its report and the head it votes for are locked by one statement), except in
the few multi-statement transactions (storing a rewarded resolve: about 9), which keep their item's rows for that
many round trips, 9 to 90 ms at 1 to 10 ms, on rows no other paid call writes. Signing keys are held by session-level advisory locks, taken once per process on a connection of their own.

**On a managed or distributed PostgreSQL** (on paper; this machine has only loopback). Each round trip adds the
network's RTT, sequentially:

${table}

- A managed PostgreSQL in the same region (~1 ms): a submission gains a few milliseconds, against a chain
  settlement that takes hundreds of milliseconds to seconds on a public network. One call holds a pooled
  connection for about (round trips × RTT); at 10 ms a submission needs ${Math.round(submitTrips * 10)} ms of one, so an instance's pool of 10
  carries about ${Math.floor(10_000 / (submitTrips * 10))} submissions/s, well above what one instance's CPU serves. The ceiling moves to the server:
  each submission commits three times before its answer (counter, claim, store; the counter's commit, like a
  sign-in nonce's, does not wait for the disk) and once after (grouping), and every instance opens up to 14
  connections (10, 3 for nonces and counters, 1 holding its signing-key locks), so a server with \`max_connections\`
  100 takes about 7; more go through a pooler (PgBouncer in transaction mode handles postgres.js's prepared statements
  from 1.21 on), except the signing-key lock connection, which needs a session of its own.
- A distributed PostgreSQL (~5–10 ms per round trip, each commit a consensus write): ${Math.round(submitTrips * 5)}–${Math.round(submitTrips * 10)} ms per submission
  and a few hundred ms per rewarded resolve, still small beside the chain. Correctness rests on unique indexes and
  conditional updates (\`UPDATE … WHERE status IN (…) RETURNING\`), which hold under READ COMMITTED and
  SERIALIZABLE alike; the paid path takes no advisory lock but an instance's own signing-key locks, each once per process (and
  migrations and mppx's read-modify-write helper, which a charge does not call). Two caveats: the rate-limit counter is one row per client address per minute,
  a hot row under optimistic concurrency when one address sends many calls at once (behind a load balancer set
  \`TRUST_PROXY\`, or every request counts on the balancer's row, as in this bench); and a database that aborts a
  transaction for a race it lost (a serialization failure, SQLSTATE 40001, or a deadlock, 40P01) costs that
  transaction another run. Every top-level transaction runs again on either, up to 6 times with jittered
  back-off (\`lib/db/errors.ts\`); each one talks to the database alone, so a second run is safe, and a test
  makes PostgreSQL abort one of two racing serializable transactions and sees both commit. The store after
  settlement runs again the same way, statement or transaction, and past its attempts it answers 503
  \`payment-pending\` and recovery stores the write. Any other single statement that loses a race is an error
  before anything is charged. Nothing is lost either way.`;
