import "server-only";
import { type Hex, toHex } from "viem";
import { type Db, getDb } from "@/lib/db/client";
import { describeError } from "@/lib/http/log";
import { broadcastRefund, refundStatus, signRefund } from "@/lib/payment/refund";
import {
  broadcast,
  findTransferWithMemo,
  minedStatus,
  payoutClient,
  signTransfer,
  tempoBalance,
} from "@/lib/payment/tempo";
import {
  markPaid,
  markRefunded,
  markRefunding,
  type PayoutRow,
  paymentOf,
  payoutFor,
  recordSigned,
} from "./payout-store";

export type PayoutOutcome =
  | { status: "paid"; txHash: Hex; recipient: string; amount: string }
  | { status: "refunded"; refundTxHash: Hex; reason: string }
  | { status: "pending" };

/** Tempo expiring-nonce transactions die 25 s after signing; past this, signed bytes can never land. */
const SIGNED_LIFETIME_MS = 60_000;
const WAIT_MS = 30_000;

/** The 32-byte memo that ties a transfer to its feedback item, readable on any explorer. */
export function rewardMemo(feedbackId: string, kind: "reward" | "refund" = "reward"): Hex {
  const text = `${kind}:${feedbackId}`;
  return toHex(text.slice(0, 32), { size: 32 });
}

async function waitMined(
  check: () => Promise<"success" | "reverted" | null>,
): Promise<"success" | "reverted" | null> {
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const status = await check();
    if (status || Date.now() > deadline) return status;
    await new Promise((r) => setTimeout(r, 250));
  }
}

const fresh = (row: PayoutRow) => Date.now() - row.updatedAt.getTime() < SIGNED_LIFETIME_MS;

/**
 * Drives an item's payout to its end, at most once, whatever happened before: a reward already on
 * chain (found by its stored hash or by its memo) is recorded, never re-sent; live signed bytes are
 * re-broadcast; only expired, unmined bytes are replaced. If the reward cannot be paid, the
 * resolver's payment is refunded the same way and the item is opened again.
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
    const advanced =
      row.status === "refunding" ? await advanceRefund(database, row) : await advancePayout(database, row);
    if (advanced === "pending") return { status: "pending" };
  }
  return { status: "pending" };
}

function paid(row: PayoutRow): PayoutOutcome {
  return { status: "paid", txHash: row.txHash as Hex, recipient: row.recipient, amount: row.amount };
}

/** One step of a payout; "again" when the row changed and must be re-read. */
async function advancePayout(db: Db, row: PayoutRow): Promise<"again" | "pending"> {
  if (row.rawTx && row.txHash) {
    const mined = await minedStatus(row.txHash as Hex);
    if (mined === "success") return markPaid(db, row, row.txHash as Hex).then(() => "again");
    if (mined === "reverted")
      return markRefunding(db, row, "the payout transaction reverted").then(() => "again");
    if (fresh(row)) {
      await broadcast(row.rawTx as Hex).catch(() => {});
      const status = await waitMined(() => minedStatus(row.txHash as Hex));
      return status ? "again" : "pending";
    }
  }
  // Before signing anything new, make sure no earlier attempt already paid this item.
  const found = await findTransferWithMemo(row.memo as Hex);
  if (found) return markPaid(db, row, found.txHash).then(() => "again");

  const amount = BigInt(row.amount);
  if ((await tempoBalance(payoutClient().account.address)) < amount) {
    await markRefunding(db, row, "the payout wallet cannot cover the reward");
    return "again";
  }
  const signed = await signTransfer(row.recipient as Hex, amount, row.memo as Hex);
  if (!(await recordSigned(db, row, "payout", signed))) return "again";
  try {
    await broadcast(signed.rawTx);
  } catch (error) {
    console.error(`[payout ${row.id}] broadcast failed: ${describeError(error)}`);
  }
  return (await waitMined(() => minedStatus(signed.txHash))) ? "again" : "pending";
}

/** One step of a refund, with the same store-then-send discipline as a payout. */
async function advanceRefund(db: Db, row: PayoutRow): Promise<"again" | "pending"> {
  const payment = await paymentOf(db, row.paymentId);
  if (row.refundRawTx && row.refundTxHash) {
    const mined = await refundStatus(payment.protocol, row.refundTxHash as Hex);
    if (mined === "success") return markRefunded(db, row, row.refundTxHash as Hex).then(() => "again");
    // Tempo bytes expire; EVM bytes with a sequential nonce may land any time until that nonce is used,
    // so those are re-sent as they are, never replaced while unmined.
    if (mined === null && (payment.protocol !== "mpp" || fresh(row))) {
      await broadcastRefund(payment.protocol, row.refundRawTx as Hex).catch(() => {});
      const status = await waitMined(() => refundStatus(payment.protocol, row.refundTxHash as Hex));
      return status ? "again" : "pending";
    }
    if (mined === "reverted") {
      console.error(`[payout ${row.id}] refund transaction reverted; retrying with a new one`);
    }
  }
  const signed = await signRefund(
    { protocol: payment.protocol, payer: payment.payer as Hex, amount: BigInt(payment.amount) },
    rewardMemo(row.feedbackId, "refund"),
  );
  if (!(await recordSigned(db, row, "refund", signed))) return "again";
  try {
    await broadcastRefund(payment.protocol, signed.rawTx);
  } catch (error) {
    console.error(`[payout ${row.id}] refund broadcast failed: ${describeError(error)}`);
  }
  return (await waitMined(() => refundStatus(payment.protocol, signed.txHash))) ? "again" : "pending";
}
