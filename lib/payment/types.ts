import type { DbOrTx } from "@/lib/db/client";
import type { LedgerRef } from "./ledger";

/** What a paid call costs and what it buys; the same charge is priced on the 402 and on the paid retry. */
export type Charge = {
  /** Stable operation name, e.g. "register"; recorded in the ledger. */
  operation: string;
  /** HTTP method of the paid route; with the path it scopes an MPP challenge to this route. */
  method: "POST";
  /** Price in USD micro-units. */
  amountMicroUsd: bigint;
  /** Absolute URL of the resource on the public origin. */
  resourceUrl: string;
  description: string;
};

/** A credential as it reads, before verification: what the ledger claims while it is verified. */
export type PeekedPayment = Omit<VerifiedPayment, "settle">;

/** A credential that passed the protocol's verification and has not been settled yet. */
export type VerifiedPayment = {
  protocol: "x402" | "mpp";
  /** The protocol's own replay domain for this credential; claimed once in the ledger, ever. */
  paymentKey: string;
  payer: `0x${string}`;
  amount: string;
  asset: string;
  network: string;
  payTo: string;
  /** After this instant the credential can no longer move money. */
  expiresAt: Date | null;
  /** The transaction the credential will become, when known before settling (MPP's signed transaction). */
  reference?: string;
  /** Takes the money. Throws SettlementError when it is certain nothing moved. */
  settle(): Promise<Settlement>;
};

export type Settlement = { txRef: string; headers: Record<string, string> };

/** One payment protocol (x402, MPP) as the paid-route wrapper sees it. */
export interface PaymentProtocol {
  readonly name: "x402" | "mpp";
  /** The problem type a replayed credential is refused with, when the protocol defines one. */
  readonly replayProblemType?: string;
  /** True when the request carries this protocol's credential. */
  hasCredential(request: Request): boolean;
  /** Headers (and a body fragment) this protocol adds to a 402. */
  challenge(charge: Charge): Promise<{ headers: Record<string, string>; body: Record<string, unknown> }>;
  /** Verifies the credential against the charge without moving money; throws AppError when refused. */
  verify(request: Request, charge: Charge): Promise<VerifiedPayment>;
  /**
   * Reads what the credential says it is (replay key, payer, amount) without verifying it: no network,
   * no signature check, so the ledger can claim it before `settlePeeked`. Null when it cannot be read
   * that way; `verify` then decides.
   */
  peek?(request: Request, charge: Charge): Promise<PeekedPayment | null>;
  /**
   * Settles a peeked credential without a separate verification, for protocols whose settlement
   * verifies first and sends nothing it refuses (x402: the facilitator checks the signature, amount,
   * validity window and asset, and the transfer's gas estimate fails when it would revert). Throws
   * CredentialRefused for a credential refused before anything was sent.
   */
  settlePeeked?(request: Request, charge: Charge): Promise<Settlement>;
  /**
   * After a crash or an unanswered settlement: looks on chain for what became of a claimed credential.
   * "settled" with its transaction, "unsettled" once it can no longer settle, "pending" while it still could.
   */
  reconcile(
    claim: ClaimedPayment,
  ): Promise<{ state: "settled"; txRef: string } | { state: "unsettled" | "pending" }>;
}

/** A ledger row as reconciliation sees it. */
export type ClaimedPayment = {
  paymentKey: string;
  txRef: string | null;
  asset: string;
  network: string;
  expiresAt: Date | null;
};

/**
 * What a paid write receives: the database, and the ledger row it is paid by (with the settlement to
 * record on it). The write stores itself and fulfils that row atomically, either in one transaction
 * ending with `fulfilPayment` or in one statement embedding `fulfilment`, so it is stored exactly once.
 */
export type PaidContext = LedgerRef & { db: DbOrTx; payer: `0x${string}`; protocol: string };

/** Settlement failed and the payer was not charged. */
export class SettlementError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SettlementError";
  }
}

/**
 * Settlement refused the credential before anything was sent (its signature, amount, validity window
 * or balance): the credential was never spent.
 */
export class CredentialRefused extends SettlementError {
  constructor(message: string) {
    super(message);
    this.name = "CredentialRefused";
  }
}
