import "server-only";
import { getDb } from "@/lib/db/client";
import { describeError } from "@/lib/http/log";
import { recoverPaidWrites } from "./paid-operations";
import { recoverPayouts } from "./rewards/recover-payouts";

const EVERY_MS = 60_000;

async function runOnce() {
  try {
    const writes = await recoverPaidWrites();
    const rewards = await recoverPayouts();
    if (
      Object.values({ ...writes, pending: 0 }).some((n) => n > 0) ||
      rewards.paid + rewards.refunded + rewards.errors > 0
    ) {
      console.info("[recovery]", JSON.stringify({ writes, rewards }));
    }
  } catch (error) {
    console.error(`[recovery] pass failed: ${describeError(error)}`);
  }
}

/** Migrates the database, reconciles once now, then every minute; safe to run in every instance. */
export async function startRecoveryLoop(): Promise<void> {
  await getDb();
  await runOnce();
  setInterval(runOnce, EVERY_MS).unref();
}
