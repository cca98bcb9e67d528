import { SettleError, type SettleResponse } from "@x402/core/types";

/**
 * What a facilitator's failed settle means for the money. A refusal before any transaction was sent and a
 * mined revert prove nothing moved yet; a revert leaves the authorization unspent and public, so it can still
 * move money until it expires. Anything else (`settlement_pending`, a nonce already used, an error without a
 * transaction, a mined transaction failing a later check) is unknown. Only a refusal is final.
 */
export type SettleFailure = { kind: "refused" | "reverted" | "unknown"; reason: string };

/** @x402/evm's reason codes for the exact scheme; our own scheme (exact-evm-scheme.ts) answers with them too. */
export const EXACT_EVM_REASONS = {
  scheme: "invalid_exact_evm_scheme",
  network: "invalid_exact_evm_network_mismatch",
  domain: "invalid_exact_evm_missing_eip712_domain",
  recipient: "invalid_exact_evm_recipient_mismatch",
  signature: "invalid_exact_evm_signature",
  validBefore: "invalid_exact_evm_payload_authorization_valid_before",
  validAfter: "invalid_exact_evm_payload_authorization_valid_after",
  value: "invalid_exact_evm_payload_authorization_value_mismatch",
  asset: "asset_not_deployed_contract",
  failed: "invalid_exact_evm_transaction_failed",
  transfer: "invalid_exact_evm_transfer_event_mismatch",
  nonceUsed: "invalid_exact_evm_nonce_already_used",
  balance: "invalid_exact_evm_insufficient_balance",
  pending: "settlement_pending",
} as const;

const {
  pending: SETTLEMENT_PENDING,
  failed: TRANSACTION_FAILED,
  nonceUsed: NONCE_ALREADY_USED,
} = EXACT_EVM_REASONS;

export function settleFailure(result: SettleResponse): SettleFailure {
  // The reason code first: the facilitator's message can quote the signed calldata at length.
  const reason = result.errorReason ?? result.errorMessage ?? "settlement failed";
  const code = result.errorReason ?? "";
  const sent = Boolean(result.transaction);
  if (code === SETTLEMENT_PENDING || code === NONCE_ALREADY_USED) return { kind: "unknown", reason };
  if (sent) return { kind: code === TRANSACTION_FAILED ? "reverted" : "unknown", reason };
  if (code === TRANSACTION_FAILED || !code) return { kind: "unknown", reason };
  return { kind: "refused", reason };
}

/**
 * A remote facilitator answers a failed settlement with an HTTP error carrying the same response, which
 * its client throws as a SettleError: read it back as that response. Anything else is rethrown.
 */
export function settleResponseOf(error: unknown): SettleResponse {
  if (!(error instanceof SettleError)) throw error;
  const { errorReason, errorMessage, transaction, network } = error;
  return { success: false, errorReason, errorMessage, transaction: transaction ?? "", network };
}
