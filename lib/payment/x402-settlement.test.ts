import { SettleError } from "@x402/core/types";
import { describe, expect, it } from "vitest";
import { settleFailure, settleResponseOf } from "./x402-settlement";

const failed = (errorReason: string | undefined, transaction = "", errorMessage?: string) => ({
  success: false,
  errorReason,
  errorMessage,
  transaction,
  network: "eip155:31337" as const,
});
const TX = `0x${"ab".repeat(32)}`;

describe("what a failed x402 settlement means for the money", () => {
  it("is a refusal when the facilitator's own checks stopped it before sending anything", () => {
    for (const reason of [
      "invalid_exact_evm_payload_signature",
      "invalid_exact_evm_payload_authorization_valid_before",
      "invalid_exact_evm_insufficient_balance",
    ]) {
      expect(settleFailure(failed(reason, "", "a long message"))).toEqual({ kind: "refused", reason });
    }
  });

  it("is a revert when the transaction was mined and failed", () => {
    expect(settleFailure(failed("invalid_exact_evm_transaction_failed", TX)).kind).toBe("reverted");
  });

  it("is unknown whenever the transfer may still happen or may have happened", () => {
    // Sent, receipt wait ran out.
    expect(settleFailure(failed("settlement_pending", TX)).kind).toBe("unknown");
    // The authorization's nonce is spent: possibly by an earlier attempt of ours.
    expect(settleFailure(failed("invalid_exact_evm_nonce_already_used")).kind).toBe("unknown");
    // A send that threw (an RPC timeout) may still have reached the chain.
    expect(settleFailure(failed("invalid_exact_evm_transaction_failed")).kind).toBe("unknown");
    // Mined, then a later check failed.
    expect(settleFailure(failed("invalid_exact_evm_transfer_event_mismatch", TX)).kind).toBe("unknown");
    expect(settleFailure(failed(undefined)).kind).toBe("unknown");
  });
});

describe("a remote facilitator's failed settlement", () => {
  it("is read back from the error its client throws, and classified the same way", () => {
    const refused = settleResponseOf(
      new SettleError(400, failed("invalid_exact_evm_payload_signature", "", "bad signature")),
    );
    expect(refused).toMatchObject({ success: false, errorReason: "invalid_exact_evm_payload_signature" });
    expect(settleFailure(refused).kind).toBe("refused");
    const pending = settleResponseOf(new SettleError(500, failed("settlement_pending", TX)));
    expect(settleFailure(pending).kind).toBe("unknown");
  });

  it("rethrows anything else: a network error's outcome is unknown", () => {
    const lost = new Error("socket hang up");
    expect(() => settleResponseOf(lost)).toThrow(lost);
  });
});
