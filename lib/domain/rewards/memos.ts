import "server-only";
import { type Hex, toHex } from "viem";

/** The 32-byte memo that ties a transfer to its feedback item, readable on any explorer. */
export function rewardMemo(feedbackId: string, kind: "reward" | "refund" = "reward"): Hex {
  const text = `${kind}:${feedbackId}`;
  return toHex(text.slice(0, 32), { size: 32 });
}
