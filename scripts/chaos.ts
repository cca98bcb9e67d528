/**
 * `npm run chaos`: the fault suite of e2e/chaos, longer than CI runs it, printing its figures.
 * Knobs: CHAOS_SECONDS (default 300), CHAOS_INSTANCES (default 2 on PostgreSQL, 1 on PGlite),
 * CHAOS_KILL_MS (min-max between kills, default 5000-15000), CHAOS_FAULT_RATE (default 1),
 * CHAOS_SEED. Set DATABASE_URL to run on PostgreSQL (a database of the run's own is made there).
 * Needs a production build (`npm run build`).
 */
import { runChaos } from "../e2e/chaos/harness";

const [killMin, killMax] = (process.env.CHAOS_KILL_MS ?? "5000-15000").split("-").map(Number);
const report = await runChaos({
  seconds: Number(process.env.CHAOS_SECONDS ?? 300),
  instances: Number(process.env.CHAOS_INSTANCES ?? (process.env.DATABASE_URL ? 2 : 1)),
  databaseUrl: process.env.DATABASE_URL,
  killEvery: [killMin ?? 5000, killMax ?? 15000],
  faultRate: Number(process.env.CHAOS_FAULT_RATE ?? 1),
  settleSeconds: 300,
  seed: process.env.CHAOS_SEED ? Number(process.env.CHAOS_SEED) : undefined,
  log: process.env.CHAOS_VERBOSE ? (line) => console.log(line) : undefined,
});

const r = report.reconciliation;
const faults = (f: Record<string, number>) =>
  Object.entries(f)
    .map(([k, v]) => `${k} ${v}`)
    .join(", ") || "none";
console.log(`
Chaos run: ${report.seconds} s of load on ${report.instances} instance(s), ${report.database}
  agent requests   ${report.requests.logical}: ${faults(report.requests.byKind)}
  outcomes         ${faults(report.requests.byOutcome)}, ${report.requests.attempts} paid attempts
  answers          ${faults(report.requests.answers)}
  kill -9          ${report.kills}
  RPC calls        ${report.faults.rpcCalls}; faults injected: EVM ${faults(report.faults.evm)}; Tempo ${faults(report.faults.tempo)}
  reconciled in    ${report.settledAfterSeconds} s after the storm

  charges on chain ${r.chargesOnChain}, writes stored ${r.writesStored}, refunds ${r.refunds}
  lost writes      ${r.lostWrites}
  unpaid stores    ${r.unpaidStores}
  double charges   ${r.doubleCharges}
  double payouts   ${r.doublePayouts}
  double refunds   ${r.doubleRefunds}
  open claims      ${r.openClaims}, open payouts ${r.openPayouts}
  anomalies        ${report.anomalies.length}
`);
for (const line of [...r.details, ...report.anomalies]) console.log(`  ! ${line}`);
const failed =
  r.lostWrites +
  r.unpaidStores +
  r.doubleCharges +
  r.doublePayouts +
  r.doubleRefunds +
  r.openClaims +
  r.openPayouts;
process.exit(failed + report.anomalies.length > 0 ? 1 : 0);
