import "server-only";
import { describeError } from "@/lib/http/log";
import { deliverDueWebhooks } from "./worker";

const EVERY_MS = 2_000;
let running = false;

async function tick() {
  // One pass at a time per process; other instances run their own, kept apart by the lease.
  if (running) return;
  running = true;
  try {
    let outcome: Awaited<ReturnType<typeof deliverDueWebhooks>>;
    do {
      outcome = await deliverDueWebhooks();
      // Only attempts count: leases handed back (a busy host) are no progress and must not spin the loop.
    } while (outcome.delivered + outcome.pending + outcome.failed >= 20);
  } catch (error) {
    console.error(`[webhooks] pass failed: ${describeError(error)}`);
  } finally {
    running = false;
  }
}

/** Sends due webhooks every two seconds; safe to run in every instance. */
export function startWebhookWorker(): void {
  setInterval(tick, EVERY_MS).unref();
}
