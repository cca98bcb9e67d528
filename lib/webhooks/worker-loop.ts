import "server-only";
import { describeError } from "@/lib/http/log";
import { queueDueDigests } from "./digest";
import { deliverDueWebhooks } from "./worker";

const EVERY_MS = 2_000;
// Digests are due once a day; looking once a minute is enough and keeps the query off every tick.
const DIGESTS_EVERY_MS = 60_000;
let running = false;
let digestsCheckedAt = 0;

async function queueDigests() {
  if (Date.now() - digestsCheckedAt < DIGESTS_EVERY_MS) return;
  digestsCheckedAt = Date.now();
  try {
    await queueDueDigests();
  } catch (error) {
    console.error(`[webhooks] digest pass failed: ${describeError(error)}`);
  }
}

async function tick() {
  // One pass at a time per process; other instances run their own, kept apart by the lease.
  if (running) return;
  running = true;
  try {
    await queueDigests();
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

/** Sends due webhooks every two seconds, and queues the daily digests; safe to run in every instance. */
export function startWebhookWorker(): void {
  setInterval(tick, EVERY_MS).unref();
}
