import { type Hex, keccak256, stringToHex, type TransactionReceipt } from "viem";
import { transferWithMemoLogs } from "@/lib/chain/tip20";

/** keccak256("mpp")[0..4]: the tag every MPP attribution memo starts with. */
const MPP_TAG = keccak256(stringToHex("mpp")).slice(0, 10);

/**
 * Whether a memo is an MPP attribution memo bound to this challenge: the MPP tag and version 1, and in
 * bytes 25..31 the first seven bytes of keccak256(challenge id), as mppx's clients write it.
 */
function memoBindsChallenge(memo: Hex, challengeId: string): boolean {
  if (memo.length !== 66) return false;
  const tagged = memo.slice(0, 10).toLowerCase() === MPP_TAG && memo.slice(10, 12) === "01";
  const nonce = keccak256(stringToHex(challengeId)).slice(2, 16);
  return tagged && memo.slice(52).toLowerCase() === nonce.toLowerCase();
}

/**
 * Whether a payer's mined transaction paid this challenge: it succeeded and moved exactly `amount` of
 * the currency from the payer to the recipient with a memo bound to the challenge. A receipt that
 * shows anything less proves nothing was paid for it.
 */
export function paysChallenge(
  receipt: TransactionReceipt,
  expected: { payer: string; payTo: string; amount: string; currency: string; challengeId: string },
): boolean {
  if (receipt.status !== "success") return false;
  const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();
  return transferWithMemoLogs(receipt.logs).some(
    (log) =>
      same(log.address, expected.currency) &&
      same(log.args.from, expected.payer) &&
      same(log.args.to, expected.payTo) &&
      log.args.amount === BigInt(expected.amount) &&
      memoBindsChallenge(log.args.memo, expected.challengeId),
  );
}
