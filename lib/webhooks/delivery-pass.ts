import "server-only";
import { describeError } from "@/lib/http/log";
import { queueDueDigests } from "./digest";
import { deliverDueWebhooks } from "./worker";

/** What one webhook pass did: digests queued, deliveries attempted (and leases handed back). */
export type DeliveryOutcome = {
  digests: { due: number; queued: number } | null;
  delivered: number;
  pending: number;
  failed: number;
  released: number;
};

const BATCH = 20;

/**
 * Queues the daily digests due (when `digests`), then sends due webhooks a batch at a time until a
 * batch comes back short. Safe in any number of processes at once: the digest claim is a conditional
 * update and deliveries are leased with SKIP LOCKED. An aborted `signal` stops it between batches.
 */
export async function deliverOnce(options: {
  digests: boolean;
  signal?: AbortSignal;
}): Promise<DeliveryOutcome> {
  const outcome: DeliveryOutcome = { digests: null, delivered: 0, pending: 0, failed: 0, released: 0 };
  // Digests failing (logged, tried again next time) must not hold back the deliveries already due.
  if (options.digests) {
    outcome.digests = await queueDueDigests().catch((error: unknown) => {
      console.error(`[webhooks] digest pass failed: ${describeError(error)}`);
      return null;
    });
  }
  let batch: Awaited<ReturnType<typeof deliverDueWebhooks>>;
  do {
    if (options.signal?.aborted) break;
    batch = await deliverDueWebhooks({ limit: BATCH });
    outcome.delivered += batch.delivered;
    outcome.pending += batch.pending;
    outcome.failed += batch.failed;
    outcome.released += batch.released;
    // Only attempts count: leases handed back (a busy host) are no progress and must not spin the loop.
  } while (batch.delivered + batch.pending + batch.failed >= BATCH);
  return outcome;
}
