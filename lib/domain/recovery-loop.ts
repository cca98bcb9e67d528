import "server-only";
import { getDb } from "@/lib/db/client";
import { describeError } from "@/lib/http/log";
import { recoverPaidWrites } from "./paid-operations";

const EVERY_MS = 60_000;

async function runOnce() {
  try {
    const report = await recoverPaidWrites();
    if (report.settled + report.failed + report.fulfilled + report.errors > 0) {
      console.info("[recovery]", JSON.stringify(report));
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
