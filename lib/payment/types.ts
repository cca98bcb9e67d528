import type { z } from "zod";
import type { DbOrTx } from "@/lib/db/client";
import type { AppError } from "@/lib/http/errors";
import type { Identity } from "@/lib/schemas/session";

// The payment layer's contract with routes, domain verbs and protocols. The words for a paid thing
// (Offer, Charge, PaidCall, PaidWrite, PaidContext) are told apart in README.md.

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
  /** What the operation takes and answers, advertised in its 402 for catalogs (x402 Bazaar). */
  discovery?: Discovery;
};

/** What a paid operation takes and answers, for agents and the catalogs that index them. */
export type Discovery = {
  input: { example: unknown; schema: z.ZodType };
  output: { example: unknown; schema: z.ZodType };
};

/** A paid call: its price, the request body it buys, and how to prepare and finish its write. */
export type PaidCall<TBody> = {
  charge: Charge;
  /** The validated request body: a credential sent again is matched to the request it first paid for. */
  body: unknown;
  /**
   * Every check that can refuse before anything is charged (a sign-in proof, a taken name, an item's
   * state), then the write. `paying` is false on the unpaid first ask, which must not spend a proof.
   */
  prepare: (paying: boolean) => Promise<PaidWrite<TBody>>;
  /** Work after the write is stored (paying a reward out); its answer replaces the stored body. Idempotent. */
  finish?: (stored: { resultId: string; body: TBody }) => Promise<TBody>;
};

/** A paid write: what it reserves, what the ledger keeps, and how it is stored once the money has moved. */
export type PaidWrite<TBody> = {
  /** A business resource only one payment may buy at a time (a namespace name, an item's reward). */
  lockKey?: string;
  /** The refusal to give when another payment holds the lock. */
  lockedError?: () => AppError;
  /** The validated input and what else the write needs, kept in the ledger to finish it after a crash. */
  input: Record<string, unknown>;
  /** A check that needs the verified payer (e.g. "the payer owns this namespace"); refuses uncharged. */
  authorize?: (payment: VerifiedPayment) => Promise<void>;
  /** Takes a business resource in the claim's transaction; throws to refuse before any charge. */
  reserve?: (tx: DbOrTx, paymentId: string) => Promise<void>;
  /** Gives the resource back, in the same transaction that fails or releases the claim. */
  release?: Release;
  commit: (ctx: PaidContext) => Promise<{ resultId: string; body: TBody }>;
};

/** Who calls a paid write, known before the payment is taken. */
export type Caller = {
  /** The wallet the call's sign-in proof names, when the route reads one and the request has one. */
  signedIn: Identity | null;
  /**
   * false on the unpaid first ask: a check that costs time or reaches out (a DNS lookup) waits for the paid
   * retry, which still makes it before any charge; true once a payment is attached.
   */
  paying: boolean;
};

/** Gives back a business resource a paid write reserved (an item held for its reward). */
export type Release = (db: DbOrTx, paymentId: string) => Promise<void>;

/** The ledger row a paid write is stored against, and the settlement to record on it. */
export type LedgerRef = {
  paymentId: string;
  /** The settlement's transaction; null when the row already records it (recovery). */
  txRef: string | null;
};

/**
 * What a paid write receives: the database, and the ledger row it is paid by (with the settlement to
 * record on it). The write stores itself and fulfils that row atomically, either in one transaction
 * ending with `fulfilPayment` or in one statement embedding `fulfilment`, so it is stored exactly once.
 */
export type PaidContext = LedgerRef & {
  db: DbOrTx;
  payer: `0x${string}`;
  /** See ReadCredential.payerContractOn. */
  payerContractOn: string | null;
  protocol: string;
};

/**
 * A credential as it reads, strictly parsed but not verified: what the ledger claims, and the key a
 * credential seen again is found by. Reading needs no network and refuses anything malformed.
 */
export type ReadCredential = {
  protocol: "x402" | "mpp";
  /** The protocol's own replay domain for this credential; claimed once in the ledger, ever. */
  paymentKey: string;
  /** The paying wallet the credential names (verification proves it signed). */
  payer: `0x${string}`;
  /**
   * The chain the payer is a contract wallet on (its signature does not recover to it: EIP-1271/6492),
   * whose address is its own there only; null when a plain key signed.
   */
  payerContractOn: string | null;
  amount: string;
  asset: string;
  network: string;
  payTo: string;
  /** The deadline: after this instant the credential can no longer move money. */
  expiresAt: Date;
  /** The transaction the credential will become, when known before settling (MPP's signed transaction). */
  reference?: string;
  /**
   * The idempotency key the credential itself carries (x402's `payment-identifier` extension): the same
   * as an Idempotency-Key header with that value.
   */
  idempotencyKey?: string | null;
};

/** A credential that passed the protocol's verification and has not been settled yet. */
export type VerifiedPayment = ReadCredential & {
  /**
   * Takes the money. Throws CredentialRefused or SettlementError only when it is certain nothing moved and
   * nothing can; SettlementReverted when nothing moved yet but the credential still can.
   */
  settle(): Promise<Settlement>;
};

export type Settlement = { txRef: string; headers: Record<string, string> };

/**
 * What the chain says became of a claimed credential: paid (with the transaction whose receipt proves
 * the transfer), unpaid (it can no longer move money, or it moved none to us), or still open. A
 * reconcile that cannot ask the chain throws: the answer is unknown and nothing is decided.
 */
export type Reconciled =
  | { state: "settled"; txRef: string }
  | { state: "unsettled"; reason: string }
  | { state: "pending" };

/** One payment protocol (x402, MPP) as the paid-route wrapper sees it. */
export interface PaymentProtocol {
  readonly name: "x402" | "mpp";
  /** The problem type a replayed credential is refused with, when the protocol defines one. */
  readonly replayProblemType?: string;
  /** True when the request carries this protocol's credential. */
  hasCredential(request: Request): boolean;
  /** The credential as sent (the header's value): a credential sent again is the same text. */
  credentialOf(request: Request): string;
  /** Whether this protocol is offered for the charge (x402 pays a reward only when it can be refunded). */
  offers(charge: Charge): boolean;
  /**
   * Headers (and a body fragment) this protocol adds to a 402; `error` says why a credential was refused,
   * where the protocol carries it (x402's PAYMENT-REQUIRED `error`).
   */
  challenge(
    charge: Charge,
    error?: string,
  ): Promise<{ headers: Record<string, string>; body: Record<string, unknown> }>;
  /**
   * The credential's ledger key, read as leniently as possible (no checks): how a credential sent again
   * is found even when it no longer reads as valid (an expired challenge, a spent transaction). Null
   * when no key can be read at all.
   */
  keyOf(request: Request): string | null;
  /** Reads the credential strictly, without the network; throws a 402 naming what is wrong with it. */
  read(request: Request, charge: Charge): Promise<ReadCredential>;
  /**
   * Proves that the read credential's payer signed it, which an Idempotency-Key scoped to that payer
   * needs before it answers: here without the network where the signature allows, else by `verify`,
   * whose result is returned so it is not asked twice. Throws a 402 naming the field when not proven.
   */
  provePayer(request: Request, charge: Charge, credential: ReadCredential): Promise<VerifiedPayment | null>;
  /** Verifies a read credential against the charge without moving money; throws AppError when refused. */
  verify(request: Request, charge: Charge, credential: ReadCredential): Promise<VerifiedPayment>;
  /**
   * Settles without a separate verify, for protocols whose settlement verifies first and sends nothing
   * it refuses (x402's facilitator checks signature, amount, window and asset; a reverting transfer fails
   * its gas estimate). Throws CredentialRefused for a credential refused before anything was sent.
   */
  settleUnverified?(request: Request, charge: Charge): Promise<Settlement>;
  /** After a crash or an unanswered settlement: what the chain says became of a claimed credential. */
  reconcile(claim: ClaimedPayment): Promise<Reconciled>;
  /** The receipt headers of a settled payment, to answer a credential seen again as the first time. */
  receiptHeaders(payment: { txRef: string; payer: string; network: string }): Record<string, string>;
  /**
   * The receipt headers of a delivered answer, once the write is stored, when they say more than
   * receiptHeaders (x402's signed receipt of what was delivered); they replace those. The same inputs
   * give the same headers, so a credential sent again gets the very same answer.
   */
  deliveredHeaders?(
    payment: { txRef: string; payer: string; network: string; amount: string },
    delivery: { resourceUrl: string; claimedAt: Date; operation: string; resultId: string; body: unknown },
  ): Promise<Record<string, string>>;
}

/** A ledger row as reconciliation sees it. */
export type ClaimedPayment = {
  paymentKey: string;
  txRef: string | null;
  payer: string;
  amount: string;
  asset: string;
  network: string;
  payTo: string;
  expiresAt: Date;
  createdAt: Date;
};

/** Settlement failed and the payer was not charged: the credential was spent without moving money. */
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

/**
 * The settlement's transaction was mined and reverted: nothing moved yet, but a revert does not spend an
 * EIP-3009 authorization, which stays usable by anyone (its calldata is public) until it expires. Only the
 * chain can say what became of it, so the claim stays open.
 */
export class SettlementReverted extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SettlementReverted";
  }
}

/**
 * Settlement could not start, through no fault of the credential (no signing key is free): nothing was
 * sent, the credential is unspent, and the same request may be retried shortly.
 */
export class SettlementUnavailable extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SettlementUnavailable";
  }
}
