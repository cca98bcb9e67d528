import "server-only";
import { retryingConflicts } from "@/lib/db/errors";
import { describeError } from "@/lib/http/log";
import { markSettled } from "./ledger";
import type { PaidContext, PaidWrite } from "./types";

/**
 * Stores a settled write and fulfils its ledger row with it (see PaidContext); recovery uses it too. Only
 * when storing fails is the settlement written alone, so recovery finishes the write from the ledger
 * instead of searching the chain, and the live path spends no extra round trip on it.
 */
export async function commitPaid<TBody>(
  commit: PaidWrite<TBody>["commit"],
  ctx: PaidContext,
): Promise<{ resultId: string; body: TBody }> {
  try {
    // The store is one statement or one transaction, rolled back whole when it loses a race: the money
    // already moved, so it runs again rather than leave the write to recovery.
    return await retryingConflicts(() => commit(ctx));
  } catch (error) {
    if (ctx.txRef) {
      await markSettled(ctx.db, ctx.paymentId, ctx.txRef).catch((e: unknown) => {
        console.error(`[payment ${ctx.paymentId}] recording the settlement failed: ${describeError(e)}`);
      });
    }
    throw error;
  }
}
