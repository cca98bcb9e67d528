import "server-only";
import { type FacilitatorClient, HTTPFacilitatorClient } from "@x402/core/server";
import {
  type PaymentPayload,
  type PaymentRequirements,
  type SettleResponse,
  VerifyError,
} from "@x402/core/types";
import { type Chain, type Client, getAddress, type Hex, type Transport } from "viem";
import { readContract } from "viem/actions";
import { eip3009Abi } from "@/lib/chain/eip3009";
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
 * 503); a 4xx is a refusal, not an outage; a failure it reports is believed only while the chain shows the
 * authorization unspent, else "unknown". Its successes are proven from the receipt in x402.ts.
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
        result = await client.settle(payload, requirements);
      } catch (error) {
        if (neverConnected(error)) {
          throw new SettlementUnavailable("the x402 facilitator could not be connected to");
        }
        result = settleResponseOf(error);
      }
      if (result.success || settleFailure(result).kind === "unknown") return result;
      if (!(await authorizationSpent(options.reader(), payload, requirements))) return result;
      return {
        ...result,
        errorReason: EXACT_EVM_REASONS.nonceUsed,
        errorMessage: `the facilitator answered ${result.errorReason}, but the authorization is spent on chain`,
      };
    },
  };
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
