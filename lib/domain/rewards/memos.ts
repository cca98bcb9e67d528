import "server-only";
import { type Hex, keccak256, size, stringToHex, toHex } from "viem";

/**
 * `<kind>:<id>` as a 32-byte memo, readable on any explorer. Text too long for 32 bytes keeps its
 * prefix and is completed with its hash, never cut short: two ids must never share a memo.
 */
function memo(kind: "reward" | "refund", id: string): Hex {
  const text = `${kind}:${id}`;
  const bytes = stringToHex(text);
  if (size(bytes) <= 32) return toHex(text, { size: 32 });
  const prefix = stringToHex(`${kind}:`);
  return `${prefix}${keccak256(bytes).slice(2, 2 + (32 - size(prefix)) * 2)}` as Hex;
}

/**
 * The memo of an item's reward. An item has one reward that is not refunded, and a refunded one never
 * moved money (its transfer reverted or provably never landed), so no other transfer carries it.
 */
export function rewardMemo(feedbackId: string): Hex {
  return memo("reward", feedbackId);
}

/**
 * The memo of the refund of one payment. An item can be refunded more than once (each rewarded resolve
 * that could not be paid), so the memo names the payment: a search for it finds this refund only.
 */
export function refundMemo(paymentId: string): Hex {
  return memo("refund", paymentId);
}
