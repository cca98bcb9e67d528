import "server-only";
import { groupPending } from "./feedback/groups";
import { recoverPaidWrites } from "./paid-operations";
import { recoverPayouts } from "./rewards/recover-payouts";

/** What one recovery pass finished: paid writes, payouts, and reports grouped. */
export type RecoveryOutcome = {
  writes: Awaited<ReturnType<typeof recoverPaidWrites>>;
  rewards: Awaited<ReturnType<typeof recoverPayouts>>;
  grouped: number;
};

/**
 * One reconciliation of the database with the chains: paid writes a crash or a lost answer left
 * half-done, payouts still owed, reports not grouped yet. Safe in any number of processes at once: a
 * step moves a row only by a conditional update from the state it read, and a payout's signed bytes are
 * recorded before they are sent (lib/payment/README.md). An aborted `signal` stops it between rows.
 */
export async function recoverOnce(signal?: AbortSignal): Promise<RecoveryOutcome> {
  const writes = await recoverPaidWrites(signal);
  const rewards = await recoverPayouts({ signal });
  const grouped = signal?.aborted ? 0 : await groupPending();
  if (
    Object.values({ ...writes, pending: 0 }).some((n) => n > 0) ||
    rewards.paid + rewards.refunded + rewards.errors + grouped > 0
  ) {
    console.info("[recovery]", JSON.stringify({ writes, rewards, grouped }));
  }
  return { writes, rewards, grouped };
}
