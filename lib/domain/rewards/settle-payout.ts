import "server-only";
import type { Hex } from "viem";
import { type Db, getDb } from "@/lib/db/client";
import { describeError } from "@/lib/http/log";
import { leaseRefundWallet, sendX402Refund, x402RefundReceipt, x402RefundState } from "@/lib/payment/refund";
import { payoutClient, tempoBalance } from "@/lib/payment/tempo";
import { refundMemo } from "./memos";
import {
  markPaid,
  markRefunded,
  markRefunding,
  type PayoutRow,
  paymentOf,
  payoutFor,
  recordRefundSent,
} from "./payout-store";
import { signAndSend, type TempoTransfer, tempoTransferState, waitMined } from "./tempo-transfer";

export type PayoutOutcome =
  | { status: "paid"; txHash: Hex; recipient: string; amount: string }
  | { status: "refunded"; refundTxHash: Hex; reason: string }
  | { status: "pending" };

/** An x402 refund sent this recently is waited for, not sent again (a second send would only revert). */
const REFUND_RESEND_AFTER_MS = 60_000;

/**
 * Drives an item's payout to its end, at most once. An unknown chain read ends the step "pending"; a new
 * transfer is signed only once the last is provably dead (nonce lapsed by the chain's clock, no receipt) and
 * no memo shows one over the payout's life. An unpayable reward refunds the resolver and reopens the item.
 */
export async function settlePayout(feedbackId: string, db?: Db): Promise<PayoutOutcome> {
  const database = db ?? (await getDb());
  for (let step = 0; step < 6; step++) {
    const row = await payoutFor(database, feedbackId);
    if (!row) throw new Error(`no payout for ${feedbackId}`);
    if (row.status === "paid") return paid(row);
    if (row.status === "refunded") {
      return { status: "refunded", refundTxHash: row.refundTxHash as Hex, reason: row.error ?? "" };
    }
    let advanced: "again" | "pending";
    try {
      advanced =
        row.status === "refunding" ? await advanceRefund(database, row) : await advancePayout(database, row);
    } catch (error) {
      // The chain could not be asked: nothing is decided and nothing new is sent; a later pass goes on.
      console.error(`[payout ${row.id}] ${row.status}: outcome unknown: ${describeError(error)}`);
      return { status: "pending" };
    }
    if (advanced === "pending") return { status: "pending" };
  }
  return { status: "pending" };
}

function paid(row: PayoutRow): PayoutOutcome {
  return { status: "paid", txHash: row.txHash as Hex, recipient: row.recipient, amount: row.amount };
}

/** One step of a payout; "again" when the row changed and must be re-read. */
async function advancePayout(db: Db, row: PayoutRow): Promise<"again" | "pending"> {
  const transfer: TempoTransfer = {
    kind: "payout",
    rawTx: row.rawTx,
    txHash: row.txHash,
    to: row.recipient as Hex,
    amount: BigInt(row.amount),
    memo: row.memo as Hex,
  };
  const state = await tempoTransferState(row, transfer);
  if (state.state === "landed") return markPaid(db, row, state.txHash).then(() => "again");
  if (state.state === "reverted") {
    return markRefunding(db, row, "the payout transaction reverted").then(() => "again");
  }
  if (state.state === "waiting") return "pending";
  if ((await tempoBalance(payoutClient().account.address)) < transfer.amount) {
    await markRefunding(db, row, "the payout wallet cannot cover the reward");
    return "again";
  }
  return signAndSend(db, row, transfer);
}

/** One step of a refund, on the network the resolver paid on. */
async function advanceRefund(db: Db, row: PayoutRow): Promise<"again" | "pending"> {
  const payment = await paymentOf(db, row.paymentId);
  if (payment.protocol === "x402") return advanceX402Refund(db, row, payment);
  const transfer: TempoTransfer = {
    kind: "refund",
    rawTx: row.refundRawTx,
    txHash: row.refundTxHash,
    to: payment.payer as Hex,
    amount: BigInt(payment.amount),
    memo: refundMemo(row.paymentId),
  };
  const state = await tempoTransferState(row, transfer);
  if (state.state === "landed") return markRefunded(db, row, state.txHash).then(() => "again");
  if (state.state === "waiting") return "pending";
  if (state.state === "reverted") {
    console.error(`[payout ${row.id}] refund transaction reverted; a new one is signed once it is dead`);
  }
  return signAndSend(db, row, transfer);
}

/**
 * One step of an x402 refund. The refund is an EIP-3009 authorization whose nonce the token spends
 * once, so sending it again can never pay twice; a recent send is still waited for rather than repeated.
 */
async function advanceX402Refund(
  db: Db,
  row: PayoutRow,
  payment: { id: string; payer: string; amount: string },
): Promise<"again" | "pending"> {
  const target = { paymentId: payment.id, payer: payment.payer as Hex, amount: BigInt(payment.amount) };
  const state = await x402RefundState(target, row.createdAt);
  if (state.state === "refunded") return markRefunded(db, row, state.txHash).then(() => "again");
  const recent = row.refundTxHash && Date.now() - row.updatedAt.getTime() < REFUND_RESEND_AFTER_MS;
  // Only the instance that holds the refund wallet's lease sends from it.
  if (!recent && !(await leaseRefundWallet())) return "pending";
  if (recent) {
    return (await waitMined(() => x402RefundReceipt(row.refundTxHash as Hex))) ? "again" : "pending";
  }
  const txHash = await sendX402Refund(target);
  // Another worker moved the payout meanwhile: read it again (the chain spends the refund's nonce once).
  if (!(await recordRefundSent(db, row, txHash))) return "again";
  return (await waitMined(() => x402RefundReceipt(txHash))) ? "again" : "pending";
}
