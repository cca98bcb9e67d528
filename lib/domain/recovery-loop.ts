import "server-only";
import { getDb } from "@/lib/db/client";
import { env } from "@/lib/env";
import { describeError } from "@/lib/http/log";
import { groupPending } from "./feedback/groups";
import { recoverPaidWrites } from "./paid-operations";
import { recoverPayouts } from "./rewards/recover-payouts";

let running = false;

async function runOnce() {
  // One pass at a time per process: a pass against a slow chain may outlast the interval.
  if (running) return;
  running = true;
  try {
    const writes = await recoverPaidWrites();
    const rewards = await recoverPayouts();
    const grouped = await groupPending();
    if (
      Object.values({ ...writes, pending: 0 }).some((n) => n > 0) ||
      rewards.paid + rewards.refunded + rewards.errors + grouped > 0
    ) {
      console.info("[recovery]", JSON.stringify({ writes, rewards, grouped }));
    }
  } catch (error) {
    console.error(`[recovery] pass failed: ${describeError(error)}`);
  } finally {
    running = false;
  }
}

/**
 * Migrates the database, then reconciles now and every RECOVERY_INTERVAL_MS (a minute by default), in
 * the background: a slow chain never delays startup. Safe to run in every instance.
 */
export async function startRecoveryLoop(): Promise<void> {
  await getDb();
  void runOnce();
  setInterval(runOnce, env().RECOVERY_INTERVAL_MS).unref();
}
