/**
 * `npm run chaos` (after `npm run build`): e2e/chaos's fault suite, longer than CI runs it, printing its
 * figures. Knobs: CHAOS_SECONDS (300), CHAOS_INSTANCES (2 on PostgreSQL, else 1), CHAOS_KILL_MS (5000-15000
 * between kills), CHAOS_FAULT_RATE (1), CHAOS_SEED; with DATABASE_URL, in a PostgreSQL database of its own.
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
