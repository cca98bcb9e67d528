import "server-only";
import type {
  FacilitatorContext,
  PaymentPayload,
  PaymentRequirements,
  SchemeNetworkFacilitator,
  SettleResponse,
} from "@x402/core/types";
import { eip3009ABI, type FacilitatorEvmSigner, resolveDataSuffix } from "@x402/evm";
import type { ExactEvmScheme } from "@x402/evm/exact/facilitator";
import { getAddress, type Hash, type Hex, type Log, parseSignature } from "viem";
import { nativeSecp256k1, recoversTo } from "@/lib/chain/ecdsa";
import { eip3009Events, transferAuthorizationDigest } from "@/lib/chain/eip3009";
import { SettlementUnavailable } from "./types";
import { EXACT_EVM_REASONS } from "./x402-settlement";

// The library's reason codes, so a settlement answered here reads exactly like one of its own.
const REASONS = EXACT_EVM_REASONS;

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const UINT = /^\d{1,78}$/;
const NONCE = /^0x[0-9a-fA-F]{64}$/;
// A plain wallet's signature: r, s and v, 65 bytes. Anything longer is wrapped (EIP-6492) or a contract's.
const ECDSA = /^0x[0-9a-fA-F]{130}$/;

/** An EIP-3009 transfer authorization as an x402 payload carries it. */
export type Authorization = {
  from: Hex;
  to: Hex;
  value: string;
  validAfter: string;
  validBefore: string;
  nonce: Hex;
};

/** The EIP-3009 authorization and signature of a payload this scheme settles itself; null for any other. */
function plainAuthorization(
  payload: PaymentPayload,
): { authorization: Authorization; signature: Hex } | null {
  const inner = payload.payload as { authorization?: Partial<Authorization>; signature?: unknown };
  const a = inner?.authorization;
  if (!a || typeof inner.signature !== "string" || !ECDSA.test(inner.signature)) return null;
  const wellFormed =
    ADDRESS.test(String(a.from)) &&
    ADDRESS.test(String(a.to)) &&
    UINT.test(String(a.value)) &&
    UINT.test(String(a.validAfter)) &&
    UINT.test(String(a.validBefore)) &&
    NONCE.test(String(a.nonce));
  return wellFormed ? { authorization: a as Authorization, signature: inner.signature as Hex } : null;
}

/** The library's reading of a failed send: what the token's revert message says went wrong. */
function sendFailureReason(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  if (/authorization.*(expired|valid before)/i.test(message) || /AuthorizationExpired/i.test(message)) {
    return REASONS.validBefore;
  }
  if (/authorization.*not.*valid|AuthorizationNotYetValid/i.test(message)) return REASONS.validAfter;
  if (/authorization.*used|AuthorizationAlreadyUsed|AuthorizationUsedOrCanceled/i.test(message)) {
    return REASONS.nonceUsed;
  }
  if (/transfer.*exceeds.*balance|insufficient.*balance|ERC20InsufficientBalance/i.test(message)) {
    return REASONS.balance;
  }
  if (/invalid.*signature|SignerMismatch|InvalidSignatureV|InvalidSignatureS/i.test(message)) {
    return REASONS.signature;
  }
  return REASONS.failed;
}

/**
 * x402's "exact" EVM scheme as the library's facilitator runs it, with a plain wallet's EIP-3009
 * authorization settled here: the library's checks, order, reasons and transaction, the signer recovered by
 * libsecp256k1 (lib/README.md). The rest (verify, Permit2, contract wallets, EIP-6492) is the library's.
 */
export class PlainWalletExactEvmScheme implements SchemeNetworkFacilitator {
  readonly scheme = "exact";
  readonly caipFamily = "eip155:*";

  constructor(
    private readonly signer: FacilitatorEvmSigner,
    private readonly library: ExactEvmScheme,
  ) {}

  getExtra(network: string) {
    return this.library.getExtra(network);
  }

  getSigners(network: string) {
    return this.library.getSigners(network);
  }

  verify(payload: PaymentPayload, requirements: PaymentRequirements, context?: FacilitatorContext) {
    return this.library.verify(payload, requirements, context);
  }

  async settle(
    payload: PaymentPayload,
    requirements: PaymentRequirements,
    context?: FacilitatorContext,
  ): Promise<SettleResponse> {
    const plain = nativeSecp256k1 ? plainAuthorization(payload) : null;
    if (!plain) return this.library.settle(payload, requirements, context);
    const { authorization, signature } = plain;
    const payer = authorization.from;
    // A payer with code is a contract wallet (EIP-1271): the library asks it. An unanswered code read is
    // the library's to answer, as it would have been.
    const code = await this.signer.getCode({ address: payer }).catch(() => null);
    if (code === null || (code && code !== "0x")) return this.library.settle(payload, requirements, context);

    const network = payload.accepted.network;
    const refused = (errorReason: string): SettleResponse => ({
      success: false,
      errorReason,
      transaction: "",
      network,
      payer,
    });
    const reason = this.refusal(payload, requirements, authorization, signature);
    if (reason) return refused(reason);
    const asset = getAddress(requirements.asset);
    const assetCode = await this.signer.getCode({ address: asset });
    if (!assetCode || assetCode === "0x") return refused(REASONS.asset);

    let tx: Hash;
    try {
      const dataSuffix = await resolveDataSuffix(context, {
        paymentPayload: payload,
        paymentRequirements: requirements,
      });
      const parsed = parseSignature(signature);
      tx = await this.signer.writeContract({
        address: asset,
        abi: eip3009ABI,
        functionName: "transferWithAuthorization",
        args: [
          getAddress(authorization.from),
          getAddress(authorization.to),
          BigInt(authorization.value),
          BigInt(authorization.validAfter),
          BigInt(authorization.validBefore),
          authorization.nonce,
          parsed.v || parsed.yParity,
          parsed.r,
          parsed.s,
        ],
        dataSuffix,
      });
    } catch (error) {
      // The key could not be used (another instance holds it now): nothing was sent, and the paid call says so.
      if (error instanceof SettlementUnavailable) throw error;
      return {
        ...refused(sendFailureReason(error)),
        errorMessage: error instanceof Error ? error.message : String(error),
      };
    }
    return this.outcome(tx, asset, authorization, network);
  }

  /** The library's checks before anything is sent, in its order; the first that fails names the refusal. */
  private refusal(
    payload: PaymentPayload,
    requirements: PaymentRequirements,
    authorization: Authorization,
    signature: Hex,
  ): string | undefined {
    if (payload.accepted.scheme !== "exact" || requirements.scheme !== "exact") return REASONS.scheme;
    const extra = requirements.extra as { name?: string; version?: string } | undefined;
    if (!extra?.name || !extra?.version) return REASONS.domain;
    if (payload.accepted.network !== requirements.network) return REASONS.network;
    // As the library's: fields the typed data refuses (an address whose mixed case breaks its EIP-55
    // checksum) make a signature that cannot be checked, never an error.
    let digest: Hex;
    try {
      digest = this.digestOf(requirements, extra as { name: string; version: string }, authorization);
    } catch {
      return REASONS.signature;
    }
    if (!recoversTo(authorization.from, digest, signature)) return REASONS.signature;
    if (getAddress(authorization.to) !== getAddress(requirements.payTo)) return REASONS.recipient;
    const now = BigInt(Math.floor(Date.now() / 1000));
    if (BigInt(authorization.validBefore) < now + 6n) return REASONS.validBefore;
    if (BigInt(authorization.validAfter) > now) return REASONS.validAfter;
    if (BigInt(authorization.value) !== BigInt(requirements.amount)) return REASONS.value;
    return undefined;
  }

  /** The EIP-712 digest the payer signed: a TransferWithAuthorization on the required token. */
  private digestOf(
    requirements: PaymentRequirements,
    extra: { name: string; version: string },
    authorization: Authorization,
  ): Hex {
    return transferAuthorizationDigest(
      {
        name: extra.name,
        version: extra.version,
        chainId: Number(requirements.network.split(":")[1]),
        verifyingContract: getAddress(requirements.asset),
      },
      {
        from: authorization.from,
        to: authorization.to,
        value: BigInt(authorization.value),
        validAfter: BigInt(authorization.validAfter),
        validBefore: BigInt(authorization.validBefore),
        nonce: authorization.nonce,
      },
    );
  }

  /** The library's reading of a sent settlement: its receipt, its status, and the Transfer it must hold. */
  private async outcome(
    tx: Hash,
    asset: Hex,
    authorization: Authorization,
    network: PaymentRequirements["network"],
  ): Promise<SettleResponse> {
    const payer = authorization.from;
    const sent = { transaction: tx, network, payer };
    let receipt: Awaited<ReturnType<FacilitatorEvmSigner["waitForTransactionReceipt"]>>;
    try {
      receipt = await this.signer.waitForTransactionReceipt({ hash: tx });
    } catch (error) {
      return {
        success: false,
        errorReason: REASONS.pending,
        errorMessage: error instanceof Error ? error.message : String(error),
        ...sent,
      };
    }
    if (receipt.status !== "success") return { success: false, errorReason: REASONS.failed, ...sent };
    const logs = (receipt as { logs?: readonly Log[] }).logs;
    if (logs != null) {
      const ofAsset = logs.filter((log) => log.address.toLowerCase() === asset.toLowerCase());
      const paid = eip3009Events(ofAsset).some(
        (event) =>
          event.eventName === "Transfer" &&
          getAddress(event.args.from) === getAddress(authorization.from) &&
          getAddress(event.args.to) === getAddress(authorization.to) &&
          event.args.value === BigInt(authorization.value),
      );
      if (!paid) return { success: false, errorReason: REASONS.transfer, ...sent };
    }
    return { success: true, ...sent };
  }
}
