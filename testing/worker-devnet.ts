import { inject } from "vitest";

/**
 * Test files run two at a time, and each vitest worker has a database (and, in the integration project, a
 * devnet) of its own: exact balance assertions and queue drains never see the other file's payments.
 * `VITEST_POOL_ID` is the worker's slot, 1 to maxWorkers, and no two running files share it.
 */
function slot(count: number): number {
  return (Number(process.env.VITEST_POOL_ID ?? "1") - 1) % count;
}

/** This worker's local chains, token and funded wallets. */
export function workerDevnet() {
  const devnets = inject("devnets");
  return devnets[slot(devnets.length)]!;
}

/** The app's environment pointed at this worker's devnet and database. */
export function workerAppEnv() {
  const envs = inject("appEnvs");
  return envs[slot(envs.length)]!;
}

/** The unit project's PostgreSQL database for this worker; undefined on the embedded database. */
export function workerDatabaseUrl(): string | undefined {
  const urls = inject("workerDatabaseUrls");
  return urls[slot(urls.length)];
}
