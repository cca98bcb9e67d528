import "server-only";
import type { Hex, TransactionReceipt } from "viem";
import { lapsed } from "@/lib/chain/blocks";
import { lookupReceipt } from "@/lib/chain/receipts";
import { transferWithMemoLogs } from "@/lib/chain/tip20";
import type { Db } from "@/lib/db/client";
import { env } from "@/lib/env";
import { describeError } from "@/lib/http/log";
import {
  broadcast,
  findTransferWithMemo,
  payoutClient,
  signTransfer,
  tempoHead,
  tempoReader,
  transferMemoOf,
  transferValidBefore,
} from "@/lib/payment/tempo";
import { type PayoutRow, recordSigned } from "./payout-store";

/** How long one call waits for a transfer it sent to be mined (Tempo mines every second) before "pending". */
const WAIT_MS = 10_000;

/** Looks for a receipt until one exists or the wait ends; a read that fails is only a look that missed. */
export async function waitMined(
  look: () => Promise<TransactionReceipt | null>,
): Promise<TransactionReceipt | null> {
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const receipt = await look().catch(() => null);
    if (receipt || Date.now() > deadline) return receipt;
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** Whether a mined Tempo receipt moved `amount` of USDC.e from the payout wallet to `to` with `memo`. */
function carriesTransfer(
  receipt: TransactionReceipt,
  expected: { to: string; amount: bigint; memo: string },
) {
  if (receipt.status !== "success") return false;
  const from = payoutClient().account.address.toLowerCase();
  return transferWithMemoLogs(receipt.logs).some(
    (log) =>
      log.address.toLowerCase() === env().MPP_CURRENCY.toLowerCase() &&
      log.args.from.toLowerCase() === from &&
      log.args.to.toLowerCase() === expected.to.toLowerCase() &&
      log.args.amount === expected.amount &&
      log.args.memo.toLowerCase() === expected.memo.toLowerCase(),
  );
}

export type TempoTransfer = {
  kind: "payout" | "refund";
  rawTx: string | null;
  txHash: string | null;
  to: Hex;
  amount: bigint;
  memo: Hex;
};

/**
 * One step of a USDC.e transfer from the payout wallet (a reward, or the refund of an MPP payment):
 * "landed" with its hash, "reverted", "waiting" (live bytes re-sent and not mined yet) or "dead" (no
 * transfer exists and none can still land: a new one may be signed).
 */
export async function tempoTransferState(
  row: PayoutRow,
  transfer: TempoTransfer,
): Promise<{ state: "landed"; txHash: Hex } | { state: "reverted" | "waiting" | "dead" }> {
  if (transfer.rawTx && transfer.txHash) {
    // Stored bytes are judged by the memo they carry: a refund signed before refunds named their
    // payment carries the older memo, and must not be taken for one that failed and sent again.
    const signed = { ...transfer, memo: transferMemoOf(transfer.rawTx as Hex) ?? transfer.memo };
    // The head first, then the receipt: a lookup made after the bytes lapsed that finds nothing is final.
    // A receipt proves what it proves on any node; "not found" decides only behind a fresh head.
    const head = await tempoHead();
    const receipt = await lookupReceipt(tempoReader(), transfer.txHash as Hex);
    if (receipt) {
      return carriesTransfer(receipt, signed)
        ? { state: "landed", txHash: transfer.txHash as Hex }
        : { state: "reverted" };
    }
    if (!lapsed(head, transferValidBefore(transfer.rawTx as Hex))) {
      await broadcast(transfer.rawTx as Hex).catch(() => {});
      const mined = await waitMined(() => lookupReceipt(tempoReader(), transfer.txHash as Hex));
      if (!mined) return { state: "waiting" };
      return carriesTransfer(mined, signed)
        ? { state: "landed", txHash: transfer.txHash as Hex }
        : { state: "reverted" };
    }
  }
  // Before signing anything new, make sure no earlier attempt paid: the memo over the whole life. The
  // memo is this payout's or this payment's refund's alone, so nothing else can be taken for it.
  const found = await findTransferWithMemo(transfer.memo, row.createdAt);
  if (found && found.to.toLowerCase() === transfer.to.toLowerCase() && found.amount === transfer.amount) {
    return { state: "landed", txHash: found.txHash };
  }
  return { state: "dead" };
}

/** Signs a new Tempo transfer, records its bytes (only if nobody recorded others since), then sends it. */
export async function signAndSend(
  db: Db,
  row: PayoutRow,
  transfer: TempoTransfer,
): Promise<"again" | "pending"> {
  const signed = await signTransfer(transfer.to, transfer.amount, transfer.memo);
  if (!(await recordSigned(db, row, transfer.kind, signed))) return "again";
  try {
    await broadcast(signed.rawTx);
  } catch (error) {
    console.error(`[payout ${row.id}] ${transfer.kind} broadcast failed: ${describeError(error)}`);
  }
  return (await waitMined(() => lookupReceipt(tempoReader(), signed.txHash))) ? "again" : "pending";
}
