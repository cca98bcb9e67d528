/**
 * `npm run worker`: the background work as a process of its own, beside web servers run with
 * BACKGROUND_WORK=off. Any number may run at once. SIGTERM or SIGINT lets the passes in hand stop before
 * their next row (waiting up to STOP_GRACE_MS), closes the database and exits.
 */
import { closeDb } from "../lib/db/client";
import { env } from "../lib/env";
import { startBackgroundWork } from "../lib/ops/background-work";
import { announceInstance } from "../lib/ops/instances";
import { checkConfiguration, openDatabaseOrExit } from "../lib/startup";

// Below the usual 30 s an orchestrator waits after SIGTERM before it sends SIGKILL.
const STOP_GRACE_MS = 20_000;

checkConfiguration();
if (!env().DATABASE_URL) {
  console.error(
    "The worker needs DATABASE_URL: the embedded database belongs to one process, so with it the web " +
      "server runs the background work itself (BACKGROUND_WORK=on).",
  );
  process.exit(1);
}
await openDatabaseOrExit();
const leave = await announceInstance("worker");
const work = startBackgroundWork({ keepAlive: true });
console.info(`[worker] started, pid ${process.pid}: recovery every ${env().RECOVERY_INTERVAL_MS} ms`);

let stopping = false;
async function stop(signal: NodeJS.Signals) {
  if (stopping) return;
  stopping = true;
  console.info(`[worker] ${signal}: stopping after the rows in hand`);
  const outcome = await work.stop(STOP_GRACE_MS);
  await leave().catch((error: unknown) => console.error(`[worker] leaving the instance records: ${error}`));
  await closeDb().catch((error: unknown) => console.error(`[worker] closing the database: ${error}`));
  console.info(`[worker] stopped (${outcome})`);
  process.exit(0);
}
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
