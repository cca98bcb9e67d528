/** The inbox section in-process: the inbox seeded at scale, each page's query timed and EXPLAINed, insights. */
import { type SQL, sql } from "drizzle-orm";
import { limitedSignedRead } from "../../lib/auth/limited-sign-in";
import { SIWX_HEADER } from "../../lib/auth/siwx";
import { getDb } from "../../lib/db/client";
import { inboxFilter, listFeedback } from "../../lib/domain/feedback/list-feedback";
import { pageSelect } from "../../lib/domain/feedback/page";
import { getInsights } from "../../lib/domain/insights/get-insights";
import { insightsQuerySchema } from "../../lib/schemas/insights";
import { listQuerySchema } from "../../lib/schemas/list";
import type { DevnetInfo } from "../devnet/start-devnet";
import { config } from "./config";
import { INBOX_NAMESPACE as NS } from "./inbox";
import { now, type Summary, timed } from "./load";
import { signedProof } from "./siwx";

type Db = Awaited<ReturnType<typeof getDb>>;
const log = (message: string) => console.log(`  [in-process] ${message}`);
const rows = async <T>(db: Db, query: SQL) => {
  const result = await db.execute(query);
  return (Array.isArray(result) ? result : ((result as { rows?: T[] }).rows ?? [])) as T[];
};
const listParams = (extra: Record<string, string>) => listQuerySchema.parse({ namespace: NS, ...extra });
const counts = (db: Db, where: SQL) =>
  rows<Record<string, string | number>>(
    db,
    sql`select count(*) filter (where namespace = ${NS}) as ns, count(*) as total,
               count(distinct severity) filter (where namespace = ${NS}) as severities,
               count(*) filter (where namespace = ${NS} and report_count > 1) as groups,
               count(*) filter (where namespace = ${NS} and group_id is not null) as grouped
        from feedback ${where}`,
  ).then(
    (r) =>
      Object.fromEntries(Object.entries(r[0] ?? {}).map(([k, v]) => [k, Number(v)])) as Record<Count, number>,
  );
type Count = "ns" | "total" | "severities" | "groups" | "grouped";

/**
 * `total` rows, every k-th in the inbox, then the table as autovacuum leaves a live one: straight after a bulk
 * load (GIN pending lists unmerged, statistics stale) searches measured the load, 2.6× slower plans.
 */
async function seed(db: Db, nsRows: number, total: number) {
  const have = await counts(db, sql`where id like 'fbbench%'`);
  const reused = have.ns === nsRows && have.total === total && have.severities === 4 && have.grouped > 0;
  const t0 = now();
  if (!reused) await db.execute(sql`delete from feedback where id like 'fbbench%'`);
  const k = Math.max(1, Math.floor(total / Math.max(1, nsRows)));
  for (let from = 1; !reused && from <= total; from += 100_000) {
    const to = Math.min(total, from + 100_000 - 1);
    await db.execute(sql`
      insert into feedback (id, namespace, type, title, description, severity, targets, submitter_wallet,
                            payment_id, created_at, grouped_at, group_id, report_count)
      select 'fbbench' || lpad(g::text, 8, '0'), case when inbox then ${NS} else 'bench-other-' || (g % 997)::text end,
             (array['bug','feature','feedback'])[1 + (g / ${k}) % 3], 'Seeded benchmark item ' || g,
             'A seeded feedback item for the inbox benchmark, number ' || g || '.',
             (array['low','medium','high','critical'])[1 + (g / ${k} / 3) % 4], '[]'::jsonb,
             '0x' || lpad(to_hex(g % 5000), 40, '0'), 'pay_bench_' || g, now() - make_interval(secs => g), now(),
             case when member then 'fbbench' || lpad((head * ${k})::text, 8, '0') end,
             case when inbox and pos = 9 and head <= ${nsRows} then size + 1 else 1 end
      from generate_series(${from}::int, ${to}::int) as g,
           -- Duplicates: in each block of ten inbox items the oldest heads a group of 0 to 6 newer ones.
           lateral (select g % ${k} = 0 and g / ${k} <= ${nsRows} as inbox, (g / ${k}) % 10 as pos,
                           (g / ${k}) / 10 * 10 + 9 as head, ((g / ${k}) / 10) % 7 as size) as shape,
           lateral (select inbox and pos between 9 - size and 8 and head <= ${nsRows} as member) as grouping`);
    log(`seeded ${to}/${total} rows`);
  }
  await db.execute(sql`vacuum (analyze) feedback`);
  return { seededMs: reused ? 0 : Math.round(now() - t0), reused };
}

/** A Sort node: the index only filtered, every match read and sorted for one page (a Merge Append is fine). */
const sortsRows = (plan: string) => /(?:^|->\s+)(?:Incremental )?Sort\s+\(/m.test(plan);

/** EXPLAIN ANALYZE of the very query listFeedback sends for these parameters (same builder, same SQL). */
async function explain(db: Db, params: ReturnType<typeof listParams>) {
  const query = pageSelect(db, { ...inboxFilter(params), limit: params.limit, cursor: params.cursor });
  const plan = (await rows<Record<string, string>>(db, sql`explain (analyze, buffers) ${query}`))
    .map((r) => Object.values(r)[0])
    .join("\n");
  const index = /feedback_ns_[a-z_]+idx/.exec(plan)?.[0] ?? null;
  const exec = /Execution Time: ([\d.]+) ms/.exec(plan)?.[1];
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
    orderFromIndex: !sortsRows(plan),
    rowsRead,
    executionMs: exec ? Number(exec) : null,
  };
}

// Searches: a word every item holds, a rare token, part of a word, no match; grouped: the dashboard's.
const CASES = Object.entries({
  "type=bug": "type=bug",
  "severity=critical": "severity=critical",
  "status=needs_info,in_progress": "status=needs_info,in_progress",
  "search: common word (q=benchmark)": "q=benchmark",
  "search: rare token (q=77777)": "q=77777",
  "search: part of a word (q=enchmar)": "q=enchmar",
  "search: no match (q=zyxwvut)": "q=zyxwvut",
  "search: rare words by relevance": "q=item 77777&sort=relevance",
  "search: common word by relevance": "q=benchmark&sort=relevance",
  "grouped: first page": "grouped=true",
  "grouped: most reports first": "grouped=true&sort=reports",
  "grouped: search common word": "grouped=true&q=benchmark",
}).map(([name, qs]) => ({ name, params: Object.fromEntries(new URLSearchParams(qs)) }));

export type InboxResult = { inbox: Awaited<ReturnType<typeof inbox>>["inbox"] & { signedRead: Summary } };

export async function inbox(info: DevnetInfo) {
  const [owner, db] = [info.accounts[0]!.address, await getDb()];
  const seeded = await seed(db, config.inboxNsRows, Math.max(config.inboxTotalRows, config.inboxNsRows));
  await db.execute(sql`
    insert into namespaces (name, owner_wallet, payment_id, created_at) values (${NS}, ${owner}, ${"pay_bench_inbox_ns"}, now())
    on conflict (name) do update set owner_wallet = excluded.owner_wallet`);
  const n = await counts(db, sql``);
  // The deep page's cursor: newest-first pages of 100 walked until that many items were passed.
  let [cursor, passed, t0] = [undefined as string | undefined, 0, now()];
  while (passed < Math.floor(config.inboxNsRows * config.deepFraction)) {
    const page = await listFeedback(owner, listParams({ limit: "100", ...(cursor ? { cursor } : {}) }), db);
    passed += page.count;
    if (!page.nextCursor || !page.feedback.length) break;
    cursor = page.nextCursor;
  }
  const deepWalk = { items: passed, ms: Math.round(now() - t0) };
  const deep = { name: `deep page (after ${passed} items, by cursor)`, params: cursor ? { cursor } : {} };
  const cases = [];
  for (const c of [{ name: "first page", params: {} }, deep, ...CASES] as typeof CASES) {
    const list = () => listFeedback(owner, listParams({ limit: "50", ...c.params }), db);
    for (let i = 0; i < 3; i++) await list();
    const { latency: inProcess } = await timed(config.listSamples, list);
    const plan = await explain(db, listParams({ limit: "50", ...c.params }));
    cases.push({ name: c.name, params: c.params, inProcess, explain: plan });
    log(`${c.name}: p50 ${inProcess.p50} ms in-process, index ${plan.index ?? "NONE"}`);
  }
  // Insights over the inbox (every seeded item falls within the last 30 days).
  const insights = [];
  for (const params of [{ days: "30" }, { days: "365", bucket: "week" }]) {
    const query = insightsQuerySchema.parse({ namespace: NS, ...params });
    await getInsights(owner, query, db);
    const { latency } = await timed(Math.max(5, Math.floor(config.listSamples / 3)), () =>
      getInsights(owner, query, db),
    );
    insights.push({ params, inProcess: latency });
  }
  const sizes = { nsRows: n.ns, tableRows: n.total, groups: n.groups, duplicates: n.grouped };
  return { inbox: { namespace: NS, ...sizes, seeded, pageLimit: 50, deepWalk, cases, insights } };
}

/** The first page read as its route reads it (sign-in, owner check, page), in this process, without Next.js. */
export async function signedRead(info: DevnetInfo) {
  const key = info.accounts[0]!.privateKey;
  const url = `${info.appUrl}/api/namespace/list?namespace=${NS}&limit=50`;
  const query = listParams({ limit: "50" });
  const read = async (proof: string) =>
    limitedSignedRead(new Request(url, { headers: { [SIWX_HEADER]: proof } }), (id) =>
      listFeedback(id.address, query),
    );
  for (const proof of [await signedProof(url, key), await signedProof(url, key)]) await read(proof);
  const proofs: string[] = [];
  for (let i = 0; i < config.listSamples; i++) proofs.push(await signedProof(url, key));
  const { latency } = await timed(proofs.length, (i) => read(proofs[i]!));
  return latency;
}
