import "server-only";
import type { DbOrTx } from "@/lib/db/client";
import { AppError } from "@/lib/http/errors";
import { describeError } from "@/lib/http/log";
import { pending, unavailable } from "./answers";
import { failPayment, releaseClaim } from "./ledger";
import {
  CredentialRefused,
  type PaymentProtocol,
  type ReadCredential,
  type Release,
  type Settlement,
  SettlementError,
  SettlementReverted,
  SettlementUnavailable,
} from "./types";

/** A claimed credential being settled; `resumed` when a request took over a claim an earlier attempt left. */
type SettlingClaim = ReadCredential & { paymentId: string; resumed?: boolean };

/**
 * Step 3, taking the money. Refused before sending: claim released (credential unspent); failed with
 * nothing moved and nothing that can: claim failed; settled. Anything else (a revert included) is unknown:
 * the chain is asked once, and if it cannot tell yet the claim stays open for recovery and the payer is told
 * not to re-sign.
 */
export async function settle(
  db: DbOrTx,
  protocol: PaymentProtocol,
  claim: SettlingClaim,
  settleOnce: () => Promise<Settlement>,
  release: Release | undefined,
): Promise<Settlement> {
  const { paymentId } = claim;
  try {
    return await settleOnce();
  } catch (error) {
    // A resumed claim's earlier attempt may have sent the credential (or sent it in a transaction that
    // reverted, leaving it public): that this attempt sent nothing proves nothing, so the chain decides.
    if (!claim.resumed) await letGoUnsent(db, paymentId, error, release);
    const final = error instanceof SettlementError && !(error instanceof CredentialRefused);
    const outcome = final
      ? ({ state: "unsettled", reason: error.message } as const)
      : await protocol
          .reconcile({ ...claim, txRef: claim.reference ?? null, createdAt: new Date() })
          .catch((e: unknown) => {
            console.error(`[payment ${paymentId}] the chain could not be asked: ${describeError(e)}`);
            return { state: "pending" } as const;
          });
    if (outcome.state === "settled") {
      return { txRef: outcome.txRef, headers: protocol.receiptHeaders({ ...claim, txRef: outcome.txRef }) };
    }
    if (outcome.state === "unsettled") {
      const recorded = await failPayment(db, paymentId, outcome.reason, release).then(
        () => true,
        (e: unknown) => {
          console.error(`[payment ${paymentId}] recording a failed settlement failed: ${describeError(e)}`);
          return false;
        },
      );
      if (!recorded) throw pending(paymentId, "This payment's outcome could not be recorded yet");
      throw new AppError(
        "settlement-failed",
        `The payment could not be settled, and you were not charged: ${outcome.reason}. Sign a new payment to try again.`,
        { body: { paymentId } },
      );
    }
    if (error instanceof SettlementReverted) {
      console.error(
        `[payment ${paymentId}] settlement reverted, its authorization still usable: ${describeError(error)}`,
      );
      throw pending(
        paymentId,
        `The payment's transaction reverted on chain and moved nothing, but its signed authorization stays usable until ${claim.expiresAt.toISOString()}: if it is used by then, what it pays for is stored; if not, nothing is charged`,
      );
    }
    console.error(`[payment ${paymentId}] settlement outcome unknown: ${describeError(error)}`);
    throw pending(paymentId, "The payment network has not confirmed this payment yet");
  }
}

/**
 * A settlement that sent nothing lets its claim go: it could not start (503, retry the same payment), or the
 * credential was refused (402). Anything else returns, for the chain to decide.
 */
async function letGoUnsent(db: DbOrTx, paymentId: string, error: unknown, release: Release | undefined) {
  if (error instanceof SettlementUnavailable) {
    await releaseClaim(db, paymentId, release).catch((e: unknown) => {
      console.error(`[payment ${paymentId}] releasing an unsent claim failed: ${describeError(e)}`);
    });
    console.error(`[payment ${paymentId}] settlement could not start: ${error.message}`);
    throw unavailable();
  }
  if (error instanceof CredentialRefused) {
    await releaseClaim(db, paymentId, release).catch((e: unknown) => {
      console.error(`[payment ${paymentId}] releasing a refused claim failed: ${describeError(e)}`);
    });
    throw new AppError("payment-invalid", `The payment was refused: ${error.message}. Nothing was charged.`);
  }
}
