import "server-only";
import { getDb } from "@/lib/db/client";
import { env, InvalidEnvError } from "@/lib/env";
import { installPeerAddressHook } from "@/lib/http/peer-address";
import { startBackgroundWork } from "@/lib/ops/background-work";

/** Checks the configuration, or exits naming each bad variable (the web server and the worker alike). */
export function checkConfiguration(): void {
  try {
    env();
  } catch (error) {
    if (error instanceof InvalidEnvError) {
      console.error(`${error.message}\nSee .env.example and docs/operations.md (Configuration).`);
      process.exit(1);
    }
    throw error;
  }
}

/**
 * Server start: refuses to run on bad configuration (naming each bad variable) and applies migrations.
 * Unless BACKGROUND_WORK=off, it also runs the background work: it finishes any paid write or payout a
 * previous crash left half-done, keeps reconciling, and sends webhooks from the outbox.
 */
export async function startServer(): Promise<void> {
  checkConfiguration();
  installPeerAddressHook();
  // Migrated before the first request, so a broken database stops the start instead of a request.
  await getDb();
  if (env().BACKGROUND_WORK) startBackgroundWork({ keepAlive: false });
}
