/**
 * The in-process half of `npm run bench`, run by run.ts in a child node with the react-server condition
 * (lib's modules import "server-only") and the devnet app environment:
 *
 *   prepare <out.json>  seed the inbox at scale with SQL, register it, walk to a deep cursor, EXPLAIN the
 *                       page queries, time listFeedback in-process, and time sign-in verification.
 *   phases  <out.json>  time the server-side phases of a paid x402 submission (ledger claim, settle with
 *                       the facilitator's verification, commit) by calling lib/payment directly against
 *                       the same devnet and DB.
 *   ceiling <out.json>  the facilitator's settle alone in a closed loop, no HTTP and no database: the most
 *                       a paid x402 call could do on this chain and machine.
 *
 * On PGlite the database is one process's: run.ts calls prepare and phases only while `next start` is
 * not running (ceiling opens no database).
 */
import { writeFileSync } from "node:fs";
import { decodePaymentRequiredHeader, decodePaymentSignatureHeader } from "@x402/core/http";
import {
  type CompleteSIWxInfo,
  createSIWxPayload,
  encodeSIWxHeader,
  parseSIWxHeader,
  SIGN_IN_WITH_X,
  type SIWxExtension,
  validateSIWxMessage,
  verifySIWxSignature,
} from "@x402/extensions/sign-in-with-x";
import { type SQL, type SQLWrapper, sql } from "drizzle-orm";
import * as Secp256k1 from "ox/Secp256k1";
import { hexToBytes, keccak256 } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { limitedSignedRead } from "../../lib/auth/limited-sign-in";
import { authenticationRequired, SIWX_HEADER, verifySignIn } from "../../lib/auth/siwx";
import { ecrecoverImplementation, recoverSigner, recoverWith } from "../../lib/chain/ecdsa";
import { closeDb, getDb } from "../../lib/db/client";
import { inboxFilter, listFeedback } from "../../lib/domain/feedback/list-feedback";
import { pageSelect } from "../../lib/domain/feedback/page";
import { submitFeedback } from "../../lib/domain/feedback/submit-feedback";
import { getInsights } from "../../lib/domain/insights/get-insights";
import { AppError } from "../../lib/http/errors";
import { commitPaid } from "../../lib/payment/commit-paid";
import { singleKeyFacilitator } from "../../lib/payment/facilitator";
import { claimPayment } from "../../lib/payment/ledger";
import { x402Protocol } from "../../lib/payment/x402";
import { submitFeedbackSchema } from "../../lib/schemas/feedback";
import { insightsQuerySchema } from "../../lib/schemas/insights";
import { listQuerySchema } from "../../lib/schemas/list";
import { createX402Fetch } from "../clients/x402-payer";
import type { DevnetInfo } from "../devnet/start-devnet";
import {
  closedLoop,
  cpuShares,
  envNumber,
  machineBusyMs,
  now,
  processesCpu,
  sortsRows,
  summarize,
} from "./common";

const [mode, outFile] = process.argv.slice(2);
const info = JSON.parse(process.env.BENCH_DEVNET ?? "null") as DevnetInfo;
if (!info || !outFile)
  throw new Error("usage: inproc.ts prepare|phases|ceiling <out.json> with BENCH_DEVNET set");

const INBOX_NAMESPACE = "bench-inbox";
const owner = info.accounts[0]!;

type Db = Awaited<ReturnType<typeof getDb>>;

function rowsOf<T>(result: unknown): T[] {
  if (Array.isArray(result)) return result as T[];
  return ((result as { rows?: T[] }).rows ?? []) as T[];
}

async function q<T>(db: Db, query: SQL): Promise<T[]> {
  return rowsOf<T>(await db.execute(query));
}

const log = (message: string) => console.log(`  [in-process] ${message}`);

// ─── Inbox at scale ──────────────────────────────────────────────────────────────────────────────────

async function seed(db: Db, nsRows: number, totalRows: number) {
  const total = Math.max(totalRows, nsRows);
  const existing = await q<{
    ns: string | number;
    total: string | number;
    severities: string | number;
    grouped: string | number;
  }>(
    db,
    sql`select count(*) filter (where namespace = ${INBOX_NAMESPACE}) as ns, count(*) as total,
               count(distinct severity) filter (where namespace = ${INBOX_NAMESPACE}) as severities,
               count(*) filter (where namespace = ${INBOX_NAMESPACE} and group_id is not null) as grouped
        from feedback where id like 'fbbench%'`,
  );
  const [have] = existing;
  if (
    have &&
    Number(have.ns) === nsRows &&
    Number(have.total) === total &&
    Number(have.severities) === 4 &&
    Number(have.grouped) > 0
  ) {
    log(`reusing ${total} seeded rows (${nsRows} in ${INBOX_NAMESPACE})`);
    await settle(db);
    return { seededMs: 0, reused: true };
  }
  const t0 = now();
  await db.execute(sql`delete from feedback where id like 'fbbench%'`);
  // Every k-th row belongs to the inbox, so its items are spread over the whole time range.
  const k = Math.max(1, Math.floor(total / Math.max(1, nsRows)));
  const chunk = 100_000;
  for (let from = 1; from <= total; from += chunk) {
    const to = Math.min(total, from + chunk - 1);
    await db.execute(sql`
      insert into feedback (id, namespace, type, title, description, severity, targets, submitter_wallet,
                            payment_id, created_at, grouped_at, group_id, report_count)
      select 'fbbench' || lpad(g::text, 8, '0'),
             case when inbox then ${INBOX_NAMESPACE} else 'bench-other-' || (g % 997)::text end,
             (array['bug','feature','feedback'])[1 + (g / ${k}) % 3],
             'Seeded benchmark item ' || g,
             'A seeded feedback item for the inbox benchmark, number ' || g || '.',
             (array['low','medium','high','critical'])[1 + (g / ${k} / 3) % 4],
             '[]'::jsonb,
             '0x' || lpad(to_hex(g % 5000), 40, '0'),
             'pay_bench_' || g,
             now() - make_interval(secs => g),
             now(),
             case when member then 'fbbench' || lpad((head * ${k})::text, 8, '0') end,
             case when inbox and pos = 9 and head <= ${nsRows} then size + 1 else 1 end
      from generate_series(${from}::int, ${to}::int) as g,
           -- Duplicates: in each block of ten inbox items the oldest heads a group of 0 to 6 newer ones.
           lateral (select g % ${k} = 0 and g / ${k} <= ${nsRows} as inbox, (g / ${k}) % 10 as pos,
                           (g / ${k}) / 10 * 10 + 9 as head, ((g / ${k}) / 10) % 7 as size) as shape,
           lateral (select inbox and pos between 9 - size and 8 and head <= ${nsRows} as member) as grouping`);
    log(`seeded ${to}/${total} rows`);
  }
  await settle(db);
  return { seededMs: Math.round(now() - t0), reused: false };
}

/**
 * The table as autovacuum leaves a live one: dead rows of an earlier seed gone, the GIN indexes' pending
 * lists merged, statistics fresh. Straight after a bulk load (or with a million dead rows of the run
 * before) the searches measured the load, not the query: 2.6× slower plans on the same data.
 */
async function settle(db: Db) {
  await db.execute(sql`vacuum (analyze) feedback`);
}

async function register(db: Db) {
  await db.execute(sql`
    insert into namespaces (name, owner_wallet, payment_id, created_at)
    values (${INBOX_NAMESPACE}, ${owner.address}, ${"pay_bench_inbox_ns"}, now())
    on conflict (name) do update set owner_wallet = excluded.owner_wallet`);
}

type ListCase = { name: string; params: Record<string, string>; deep?: boolean };

function listParams(extra: Record<string, string>) {
  return listQuerySchema.parse({ namespace: INBOX_NAMESPACE, ...extra });
}

/** Walks newest-first pages of 100 by cursor until `depth` items were passed; returns that cursor. */
async function walkTo(db: Db, depth: number) {
  let cursor: string | undefined;
  let passed = 0;
  let lastRow: { createdAt: string; id: string } | undefined;
  const t0 = now();
  while (passed < depth) {
    const page = await listFeedback(
      owner.address,
      listParams({ limit: "100", ...(cursor ? { cursor } : {}) }),
      db,
    );
    passed += page.count;
    const last = page.feedback.at(-1) as { id: string; createdAt: string } | undefined;
    if (!page.nextCursor || !last) break;
    cursor = page.nextCursor;
    lastRow = { createdAt: last.createdAt, id: last.id };
  }
  return { cursor, passed, lastRow, walkMs: Math.round(now() - t0) };
}

async function planOf(db: Db, query: SQLWrapper) {
  const rows = await q<Record<string, string>>(db, sql`explain (analyze, buffers) ${query}`);
  return rows.map((r) => Object.values(r)[0]).join("\n");
}

/** EXPLAIN ANALYZE of the very query listFeedback sends for these parameters (same builder, same SQL). */
async function explain(db: Db, params: ReturnType<typeof listParams>) {
  const plan = await planOf(
    db,
    pageSelect(db, { ...inboxFilter(params), limit: params.limit, cursor: params.cursor }),
  );
  const index = /feedback_ns_[a-z_]+idx/.exec(plan)?.[0] ?? null;
  const exec = /Execution Time: ([\d.]+) ms/.exec(plan)?.[1];
  const orderFromIndex = !sortsRows(plan);
  // Every scan's rows (a several-status page merges one index range per status).
  const scans = [
    ...plan.matchAll(
      /(?:Index Scan|Index Only Scan|Bitmap Heap Scan|Seq Scan)[^\n]*actual time=[\d.]+\.\.[\d.]+ rows=([\d.]+) loops=(\d+)/g,
    ),
  ];
  const rowsRead = scans.length
    ? Math.round(scans.reduce((sum, s) => sum + Number(s[1]) * Number(s[2]), 0))
    : Number.NaN;
  return {
    plan,
    index,
    usesNsIndex: index !== null,
    orderFromIndex,
    rowsRead,
    executionMs: exec ? Number(exec) : null,
  };
}

async function prepare() {
  const nsRows = envNumber("BENCH_INBOX_NS_ROWS", 100_000);
  const totalRows = envNumber("BENCH_INBOX_TOTAL_ROWS", 1_000_000);
  const samples = envNumber("BENCH_LIST_SAMPLES", 30);
  const db = await getDb();
  const seeded = await seed(db, nsRows, totalRows);
  await register(db);
  const [counts] = await q<{ ns: string; total: string; groups: string; grouped: string }>(
    db,
    sql`select count(*) filter (where namespace = ${INBOX_NAMESPACE}) as ns, count(*) as total,
               count(*) filter (where namespace = ${INBOX_NAMESPACE} and report_count > 1) as groups,
               count(*) filter (where namespace = ${INBOX_NAMESPACE} and group_id is not null) as grouped
        from feedback`,
  );
  log(
    `feedback table: ${counts?.total} rows, ${counts?.ns} in ${INBOX_NAMESPACE}` +
      ` (${counts?.groups} groups holding ${counts?.grouped} duplicates)`,
  );

  const depth = Math.floor(nsRows * envNumber("BENCH_DEEP_FRACTION", 0.9));
  const walk = await walkTo(db, depth);
  log(`walked ${walk.passed} items by cursor in ${walk.walkMs} ms`);
  const cases: ListCase[] = [
    { name: "first page", params: {} },
    {
      name: `deep page (after ${walk.passed} items, by cursor)`,
      params: walk.cursor ? { cursor: walk.cursor } : {},
      deep: true,
    },
    { name: "type=bug", params: { type: "bug" } },
    { name: "severity=critical", params: { severity: "critical" } },
    { name: "status=needs_info,in_progress", params: { status: "needs_info,in_progress" } },
    // Search: a word every item holds, a rare token, a literal part of a word, nothing at all, and the
    // common word ranked by relevance (every match is scored before the first page is known).
    { name: "search: common word (q=benchmark)", params: { q: "benchmark" } },
    { name: "search: rare token (q=77777)", params: { q: "77777" } },
    { name: "search: part of a word (q=enchmar)", params: { q: "enchmar" } },
    { name: "search: no match (q=zyxwvut)", params: { q: "zyxwvut" } },
    { name: "search: rare words by relevance", params: { q: "item 77777", sort: "relevance" } },
    { name: "search: common word by relevance", params: { q: "benchmark", sort: "relevance" } },
    // The dashboard's view: one row per group of duplicates with its reporters, newest or most voted.
    { name: "grouped: first page", params: { grouped: "true" } },
    { name: "grouped: most reports first", params: { grouped: "true", sort: "reports" } },
    { name: "grouped: search common word", params: { grouped: "true", q: "benchmark" } },
  ];
  const limit = 50;
  const results = [];
  for (const c of cases) {
    const latencies: number[] = [];
    for (let i = 0; i < 3; i++) {
      await listFeedback(owner.address, listParams({ limit: String(limit), ...c.params }), db);
    }
    for (let i = 0; i < samples; i++) {
      const t0 = now();
      await listFeedback(owner.address, listParams({ limit: String(limit), ...c.params }), db);
      latencies.push(now() - t0);
    }
    const plan = await explain(db, listParams({ limit: String(limit), ...c.params }));
    results.push({ name: c.name, params: c.params, inProcess: summarize(latencies), explain: plan });
    log(`${c.name}: p50 ${summarize(latencies).p50} ms in-process, index ${plan.index ?? "NONE"}`);
  }

  // Insights over the inbox (every seeded item falls within the last 30 days).
  const insights = [];
  for (const params of [{ days: "30" }, { days: "365", bucket: "week" }]) {
    const query = insightsQuerySchema.parse({ namespace: INBOX_NAMESPACE, ...params });
    await getInsights(owner.address, query, db);
    const latencies: number[] = [];
    for (let i = 0; i < Math.max(5, Math.floor(samples / 3)); i++) {
      const t0 = now();
      await getInsights(owner.address, query, db);
      latencies.push(now() - t0);
    }
    insights.push({ params, inProcess: summarize(latencies) });
    log(`insights ${JSON.stringify(params)}: p50 ${summarize(latencies).p50} ms in-process`);
  }

  const siwx = await signInThroughput(envNumber("BENCH_SIWX_PROOFS", 300));
  const signedRead = await signedReadInProcess(cases[0]!.params, limit, samples);
  writeFileSync(
    outFile!,
    JSON.stringify(
      {
        inbox: {
          namespace: INBOX_NAMESPACE,
          nsRows: Number(counts?.ns ?? 0),
          tableRows: Number(counts?.total ?? 0),
          groups: Number(counts?.groups ?? 0),
          duplicates: Number(counts?.grouped ?? 0),
          seeded,
          pageLimit: limit,
          deepWalk: { items: walk.passed, ms: walk.walkMs },
          cases: results,
          signedRead,
          insights,
        },
        siwx,
      },
      null,
      2,
    ),
  );
}

// ─── Sign-in verification ────────────────────────────────────────────────────────────────────────────

async function signInThroughput(count: number) {
  const url = `${info.appUrl}/api/namespace/list?namespace=${INBOX_NAMESPACE}`;
  const proofs: string[] = [];
  const t0 = now();
  for (let i = 0; i < count; i++) {
    proofs.push(await signedProof(url, info.accounts[i % info.accounts.length]!.privateKey));
  }
  const prepMs = now() - t0;
  // The anchor: the x402 SDK's own verification of the same proofs (parse, validate the message against
  // the origin, verify the signature with viem), with no nonce store, so no database at all.
  const sdk = await timed(proofs, async (proof) => {
    const payload = parseSIWxHeader(proof);
    const valid = await validateSIWxMessage(payload, new URL(url));
    const verified = await verifySIWxSignature(payload);
    if (!valid.isValid || !verified.isValid) throw new Error("the SDK refused a good sign-in proof");
  });
  const ours = await timed(proofs, (proof) => verifySignIn(proof));
  // A second pass must fail: each nonce is single-use.
  const replay = await verifySignIn(proofs[0]!).then(
    () => "accepted (BUG)",
    () => "refused",
  );
  const result = {
    proofs: count,
    perSecond: ours.perSecond,
    latency: ours.latency,
    sdk: { perSecond: sdk.perSecond, latency: sdk.latency },
    recovery: recoveryCost(),
    challengeAndSignMsPerProof: Math.round((prepMs / count) * 100) / 100,
    replayOfUsedProof: replay,
    note: "verifySignIn in one process, sequential: parse, validate, ECDSA recover, consume the stored nonce",
  };
  log(
    `sign-in verification: ${result.perSecond}/s (p50 ${result.latency.p50} ms), the SDK's own ${sdk.perSecond}/s (p50 ${sdk.latency.p50} ms), replay ${replay}`,
  );
  log(`ECDSA recovery alone: ${JSON.stringify(result.recovery)}`);
  return result;
}

/** A SIGN-IN-WITH-X header for `url`, on a challenge (and nonce) issued by this process's code. */
async function signedProof(url: string, privateKey: `0x${string}`): Promise<string> {
  const challenge = await authenticationRequired(url).catch((e: unknown) => e);
  if (!(challenge instanceof AppError)) throw new Error("authenticationRequired did not return an AppError");
  const header = challenge.extra.headers?.["PAYMENT-REQUIRED"];
  if (!header) throw new Error("no PAYMENT-REQUIRED header on the sign-in challenge");
  const ext = decodePaymentRequiredHeader(header).extensions?.[SIGN_IN_WITH_X] as SIWxExtension;
  const chain = ext.supportedChains[0]!;
  const signInfo = { ...ext.info, chainId: chain.chainId, type: chain.type } as CompleteSIWxInfo;
  return encodeSIWxHeader(await createSIWxPayload(signInfo, privateKeyToAccount(privateKey), url));
}

/**
 * A signed page read the way its route reads it, in this process: `limitedSignedRead` (the proof
 * checked, its nonce spent and the budgets counted in one statement, the owner check and the page read
 * beside it), then the answer's items. Over HTTP the same work runs inside Next.js, on the same thread
 * as the framework's own handling of each request; the difference between the two is that handling.
 */
async function signedReadInProcess(params: Record<string, string>, limit: number, count: number) {
  const url = `${info.appUrl}/api/namespace/list?${new URLSearchParams({ namespace: INBOX_NAMESPACE, limit: String(limit), ...params })}`;
  const query = listParams({ limit: String(limit), ...params });
  const read = (proof: string) =>
    limitedSignedRead(new Request(url, { headers: { [SIWX_HEADER]: proof } }), (identity) =>
      listFeedback(identity.address, query),
    );
  for (const proof of [await signedProof(url, owner.privateKey), await signedProof(url, owner.privateKey)]) {
    await read(proof);
  }
  const proofs: string[] = [];
  for (let i = 0; i < count; i++) proofs.push(await signedProof(url, owner.privateKey));
  const { latency } = await timed(proofs, read);
  log(
    `signed read of the first page (sign-in, owner check and page, as the route runs them): p50 ${latency.p50} ms`,
  );
  return latency;
}

/** Runs `fn` over every proof in turn: the rate over the whole pass and each call's latency. */
async function timed(proofs: string[], fn: (proof: string) => Promise<unknown>) {
  const latencies: number[] = [];
  const start = now();
  for (const proof of proofs) {
    const t = now();
    await fn(proof);
    latencies.push(now() - t);
  }
  const wall = now() - start;
  return { perSecond: Math.round((proofs.length / (wall / 1000)) * 10) / 10, latency: summarize(latencies) };
}

/** Microseconds per recovery with the implementation in use and with the pure-JS curve, side by side. */
function recoveryCost() {
  const hash = hexToBytes(keccak256("0x01"));
  const key = info.accounts[0]!.privateKey;
  const { r, s, recovery } = secp256k1Sign(hash, key);
  const per = (fn: () => unknown, n: number) => {
    const t = now();
    for (let i = 0; i < n; i++) fn();
    return Math.round(((now() - t) / n) * 1000 * 10) / 10;
  };
  return {
    implementation: ecrecoverImplementation,
    usPerRecovery: per(() => recoverSigner(hash, r, s, recovery), 2000),
    pureJsUsPerRecovery: per(() => recoverWith.pureJs(hash, r, s, recovery), 300),
  };
}

function secp256k1Sign(hash: Uint8Array, privateKey: `0x${string}`) {
  const sig = Secp256k1.sign({ payload: hash, privateKey });
  return {
    r: hexToBytes(`0x${sig.r.toString(16).padStart(64, "0")}`),
    s: hexToBytes(`0x${sig.s.toString(16).padStart(64, "0")}`),
    recovery: sig.yParity as 0 | 1,
  };
}

/** The submission's price, as the service charges it. */
const FEEDBACK_CHARGE = {
  operation: "feedback",
  method: "POST" as const,
  amountMicroUsd: 10_000n,
  resourceUrl: `${info.appUrl}/api/namespace/feedback`,
  description: "Submitting feedback",
};

/** The PAYMENT-REQUIRED header of a submission's x402 challenge. */
async function feedbackChallenge() {
  return (await x402Protocol.challenge(FEEDBACK_CHARGE)).headers["PAYMENT-REQUIRED"]!;
}

/** The official x402 client of each devnet wallet. */
function devnetPayers() {
  return info.accounts.map((a) =>
    createX402Fetch({
      privateKey: a.privateKey,
      network: info.x402.network,
      rpcUrl: info.x402.rpcUrl,
      asset: info.x402.asset,
    }),
  );
}

// ─── Server-side phases of a paid x402 submission ────────────────────────────────────────────────────

async function phases() {
  const count = envNumber("BENCH_PHASES_REQUESTS", 40);
  const concurrencies = (process.env.BENCH_PHASES_CONCURRENCY ?? "1,8").split(",").map(Number);
  const db = await getDb();
  const charge = FEEDBACK_CHARGE;
  const required = await feedbackChallenge();
  const payers = devnetPayers();
  const input = submitFeedbackSchema.parse({
    namespace: "bench-phases",
    type: "bug",
    title: "Benchmark phases item",
    description: "Timing claim, settle and commit in-process.",
    severity: "low",
  });
  const out = [];
  for (const concurrency of concurrencies) {
    const signatures = await Promise.all(
      Array.from({ length: count }, (_, i) => payers[i % payers.length]!.sign(required)),
    );
    const t = {
      claim: [] as number[],
      settle: [] as number[],
      commit: [] as number[],
    };
    // The submission's own path (lib/payment/paid.ts): the credential is claimed as it reads, then
    // settled by one facilitator call that verifies it before sending anything.
    const load = await closedLoop(count, concurrency, async (i) => {
      const request = new Request(charge.resourceUrl, {
        method: "POST",
        headers: { "payment-signature": signatures[i]! },
      });
      const t0 = now();
      const peeked = await x402Protocol.read(request, charge);
      const claim = await claimPayment(db, {
        payment: peeked,
        operation: "feedback",
        lockKey: null,
        request: { bench: true },
        requestHash: "bench",
      });
      const t1 = now();
      if (!claim.ok) return `claim refused: ${claim.reason}`;
      const settlement = await x402Protocol.settleUnverified!(request, charge);
      const t2 = now();
      await commitPaid((ctx) => submitFeedback({ ...input, signedIn: null }, ctx), {
        db,
        paymentId: claim.paymentId,
        txRef: settlement.txRef,
        payer: peeked.payer,
        payerContractOn: peeked.payerContractOn,
        protocol: peeked.protocol,
      });
      const t3 = now();
      t.claim.push(t1 - t0);
      t.settle.push(t2 - t1);
      t.commit.push(t3 - t2);
      return null;
    });
    const phasesOut = {
      claimDb: summarize(t.claim),
      settle: summarize(t.settle),
      commitDb: summarize(t.commit),
    };
    out.push({ concurrency, load, phases: phasesOut });
    log(
      `x402 phases at c=${concurrency}: claim ${phasesOut.claimDb.p50} ms, settle ${phasesOut.settle.p50} ms, commit ${phasesOut.commitDb.p50} ms (${load.errors} errors)`,
    );
  }
  writeFileSync(outFile!, JSON.stringify({ x402: out }, null, 2));
}

// ─── The ceiling: the facilitator's settle alone ─────────────────────────────────────────────────────

/**
 * What the chain and the facilitator allow, with nothing of ours around them: the in-process facilitator
 * (lib/payment/facilitator.ts, built for one key, no lease) settling pre-signed payments in a closed
 * loop: no HTTP, no database, no ledger. BENCH_CEILING_KEY names the key, one neither the server nor the
 * baseline sends from, so their nonces stay their own.
 */
async function ceiling() {
  const concurrency = envNumber("BENCH_CEILING_CONCURRENCY", 32);
  const count = envNumber("BENCH_CEILING_REQUESTS", 384);
  const warmup = envNumber("BENCH_CEILING_WARMUP", 32);
  const key = process.env.BENCH_CEILING_KEY as `0x${string}` | undefined;
  if (!key) throw new Error("BENCH_CEILING_KEY is required");
  const { facilitator } = singleKeyFacilitator(key);
  const header = await feedbackChallenge();
  const requirements = decodePaymentRequiredHeader(header).accepts[0]!;
  const payers = devnetPayers();
  const sign = (n: number) =>
    Promise.all(
      Array.from({ length: n }, async (_, i) =>
        decodePaymentSignatureHeader(await payers[i % payers.length]!.sign(header)),
      ),
    );
  const settle = async (payload: Awaited<ReturnType<typeof sign>>[number]) => {
    const result = await facilitator.settle(payload, requirements);
    if (result.success) return null;
    // The message says why (a node's error, a timeout); long hex (calldata, which carries the payer's
    // signature) is cut out of it.
    const why = result.errorMessage?.replace(/0x[0-9a-fA-F]{66,}/g, "0x…").slice(0, 240);
    return `settle failed: ${result.errorReason ?? "unknown"}${why ? ` (${why})` : ""}`;
  };
  const warm = await sign(warmup);
  await closedLoop(warm.length, 8, (i) => settle(warm[i]!));
  const payloads = await sign(count);
  const samples: number[] = [];
  // CPU over the loop, as the servers' levels count it: this process (the settle's own work) and the
  // whole machine (the chain's too).
  const before = { own: process.cpuUsage(), machine: machineBusyMs(), processes: processesCpu() };
  const load = await closedLoop(count, concurrency, async (i) => {
    const t0 = now();
    const failure = await settle(payloads[i]!);
    if (failure === null) samples.push(now() - t0);
    return failure;
  });
  const own = process.cpuUsage(before.own);
  const machineMs = machineBusyMs() - before.machine;
  // This process settles and is its own load generator: all of it counts as the settling process's.
  const shares = cpuShares(before.processes, processesCpu(), machineMs, process.pid);
  const cpu = { ownMs: (own.user + own.system) / 1000, machineMs, shares };
  writeFileSync(outFile!, JSON.stringify({ ...load, samples, cpu }, null, 2));
}

try {
  if (mode === "prepare") await prepare();
  else if (mode === "phases") await phases();
  else if (mode === "ceiling") await ceiling();
  else throw new Error(`unknown mode ${mode}`);
} finally {
  await closeDb();
}
process.exit(0);
