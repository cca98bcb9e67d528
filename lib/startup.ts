import "server-only";
import { startRecoveryLoop } from "@/lib/domain/recovery-loop";
import { env, InvalidEnvError } from "@/lib/env";
import { installPeerAddressHook } from "@/lib/http/peer-address";
import { startWebhookWorker } from "@/lib/webhooks/worker-loop";

/**
 * Server start: refuses to run on bad configuration (naming each bad variable), applies migrations,
 * finishes any paid write or payout a previous crash left half-done, keeps reconciling, and sends
 * webhooks from the outbox.
 */
export async function startServer(): Promise<void> {
  try {
    env();
  } catch (error) {
    if (error instanceof InvalidEnvError) {
      console.error(`${error.message}\nSee .env.example and docs/operations.md (Configuration).`);
      process.exit(1);
    }
    throw error;
  }
  installPeerAddressHook();
  await startRecoveryLoop();
  startWebhookWorker();
}
