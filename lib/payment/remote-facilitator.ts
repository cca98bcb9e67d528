import "server-only";
import { type FacilitatorClient, HTTPFacilitatorClient } from "@x402/core/server";
import {
  type PaymentPayload,
  type PaymentRequirements,
  type SettleResponse,
  VerifyError,
} from "@x402/core/types";
import {
  type Chain,
  type Client,
  decodeFunctionData,
  getAddress,
  type Hash,
  type Hex,
  type Transport,
} from "viem";
import { getTransaction, readContract } from "viem/actions";
import { eip3009Abi, transferWithAuthorizationAbi } from "@/lib/chain/eip3009";
import { lookupReceipt } from "@/lib/chain/receipts";
import { enterStep } from "@/lib/chain/steps";
import { SettlementUnavailable } from "./types";
import { EXACT_EVM_REASONS, settleFailure, settleResponseOf } from "./x402-settlement";

/** Errors of a connection that was never made: the request reached nobody. */
const NEVER_CONNECTED = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH"]);

function neverConnected(error: unknown): boolean {
  const cause = (error as { cause?: { code?: string; errors?: { code?: string }[] } } | null)?.cause;
  const codes = cause?.errors?.length ? cause.errors.map((e) => e.code) : [cause?.code];
  return codes.every((code) => code !== undefined && NEVER_CONNECTED.has(code));
}

/**
 * A facilitator over HTTP (X402_FACILITATOR_URL): a settle never connected sent nothing (the claim is let go:
 * 503); a verify's 4xx is a refusal, not an outage. A settle's failure is its word only, and it may have
 * broadcast before answering: a refusal leaves the claim open until the chain decides (the authorization
 * spent, or expired unspent: reconciliation), and a revert is named one only from a mined, reverted receipt
 * of that payment's own transaction while the authorization stays unspent (its claim stays open too, since a
 * revert spends nothing: settle.ts). Its successes are proven from the receipt in x402.ts.
 */
export function remoteFacilitator(options: {
  url: string;
  timeoutMs: number;
  reader: () => Client<Transport, Chain>;
}): FacilitatorClient {
  const client = new HTTPFacilitatorClient({ url: options.url, timeoutMs: options.timeoutMs });
  return {
    getSupported: () => client.getSupported(),
    verify: (payload, requirements) =>
      client.verify(payload, requirements).catch((error: unknown) => {
        if (!(error instanceof VerifyError) || error.statusCode >= 500) throw error;
        const { invalidReason, invalidMessage, payer } = error;
        return { isValid: false, invalidReason, invalidMessage, payer };
      }),
    async settle(payload, requirements) {
      let result: SettleResponse;
      try {
        enterStep("the facilitator's answer");
        result = await client.settle(payload, requirements);
      } catch (error) {
        if (neverConnected(error)) {
          throw new SettlementUnavailable("the x402 facilitator could not be connected to");
        }
        result = settleResponseOf(error);
      }
      if (result.success) return result;
      const failure = settleFailure(result);
      if (failure.kind === "unknown") return result;
      const reader = options.reader();
      enterStep("the chain's view of the facilitator's failure");
      if (await authorizationSpent(reader, payload, requirements)) {
        return undecided(result, "but the authorization is spent on chain");
      }
      if (
        failure.kind === "reverted" &&
        (await revertedOnChain(reader, result.transaction as Hash, payload))
      ) {
        return result;
      }
      return undecided(result, "which the chain does not show yet: the claim waits for the chain");
    },
  };
}

/** A failure turned into "unknown", naming what the facilitator said: reconciliation asks the chain. */
function undecided(result: SettleResponse, why: string): SettleResponse {
  return {
    ...result,
    errorReason: EXACT_EVM_REASONS.pending,
    errorMessage: `the facilitator answered ${result.errorReason ?? "a failure"}, ${why}`,
  };
}

/**
 * Whether `hash` is mined, reverted, and this payment's own transferWithAuthorization (the payer's
 * authorization nonce, sent to the token): a facilitator naming some other reverted transaction proves
 * nothing about this one. A hash the chain does not know yet is not reverted.
 */
async function revertedOnChain(
  reader: Client<Transport, Chain>,
  hash: Hash,
  payload: PaymentPayload,
): Promise<boolean> {
  const auth = (payload.payload as { authorization?: { from?: string; nonce?: string } }).authorization;
  if (!auth?.from || !auth.nonce || !/^0x[0-9a-fA-F]{64}$/.test(hash ?? "")) return false;
  const receipt = await lookupReceipt(reader, hash);
  if (receipt?.status !== "reverted") return false;
  const sent = await getTransaction(reader, { hash });
  try {
    const { args } = decodeFunctionData({ abi: transferWithAuthorizationAbi, data: sent.input });
    const [from, , , , , nonce] = args;
    return getAddress(from) === getAddress(auth.from) && nonce.toLowerCase() === auth.nonce.toLowerCase();
  } catch {
    return false;
  }
}

/** Whether the chain shows the payment's authorization nonce spent; a failed read throws ("unknown"). */
async function authorizationSpent(
  reader: Client<Transport, Chain>,
  payload: PaymentPayload,
  requirements: PaymentRequirements,
): Promise<boolean> {
  const auth = (payload.payload as { authorization?: { from?: string; nonce?: string } }).authorization;
  // Not an EIP-3009 payment (the service accepts no other): nothing to read, so nothing is believed.
  if (!auth?.from || !auth.nonce) return true;
  return readContract(reader, {
    address: getAddress(requirements.asset),
    abi: eip3009Abi,
    functionName: "authorizationState",
    args: [getAddress(auth.from), auth.nonce as Hex],
  });
}
