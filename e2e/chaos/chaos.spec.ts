import { expect, test } from "@playwright/test";
import { runChaos } from "./harness";

// Money under faults: paid submissions and rewarded resolves while the chains' RPC fails in every way
// and the app is killed with SIGKILL, then reconciliation, then the ledger against the chains. Bounded
// for CI here; `npm run chaos` runs it longer and prints the figures.
test("kill -9 and a failing network lose no write and charge nothing twice", async () => {
  const testInfo = test.info();
  test.setTimeout(15 * 60_000);
  const lines: string[] = [];
  const report = await runChaos({
    seconds: Number(process.env.CHAOS_SECONDS ?? 45),
    instances: process.env.DATABASE_URL ? 2 : 1,
    databaseUrl: process.env.DATABASE_URL,
    killEvery: [6_000, 12_000],
    faultRate: 1,
    settleSeconds: 240,
    log: (line) => lines.push(line),
  });
  const { details, ...reconciliation } = report.reconciliation;
  const summary = { ...report, reconciliation };
  console.log(`[chaos] ${JSON.stringify(summary)}`);
  await testInfo.attach("chaos-report.json", { body: JSON.stringify({ ...summary, details }, null, 2) });
  await testInfo.attach("app.log", { body: lines.slice(-2_000).join("\n") });

  expect(report.kills, "the app was killed during the run").toBeGreaterThan(0);
  expect(
    Object.values(report.faults.evm).reduce((a, b) => a + b, 0),
    "faults were injected",
  ).toBeGreaterThan(0);
  for (const kind of ["feedback/x402", "feedback/mpp", "resolve/x402", "resolve/mpp"]) {
    expect(report.requests.byKind[kind] ?? 0, `${kind} requests were made`).toBeGreaterThan(0);
  }
  expect(report.requests.byOutcome.stored ?? 0, "agents got writes stored").toBeGreaterThan(0);
  expect(details, "reconciliation").toEqual([]);
  expect(reconciliation).toMatchObject({
    lostWrites: 0,
    unpaidStores: 0,
    doubleCharges: 0,
    doublePayouts: 0,
    doubleRefunds: 0,
    openClaims: 0,
    openPayouts: 0,
  });
  expect(report.anomalies, "answers no agent should get").toEqual([]);
  expect(report.requests.byOutcome.abandoned ?? 0, "requests that never got an answer").toBe(0);
});
