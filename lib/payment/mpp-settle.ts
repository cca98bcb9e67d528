import "server-only";
import { Expires, Receipt } from "mppx";
import {
  BaseError,
  type Hash,
  type Hex,
  MethodNotFoundRpcError,
  MethodNotSupportedRpcError,
  TransactionNotFoundError,
  type TransactionReceipt,
} from "viem";
import {
  getTransaction,
  getTransactionReceipt,
  sendRawTransaction,
  sendRawTransactionSync,
  waitForTransactionReceipt,
} from "viem/actions";
import { lapsed } from "@/lib/chain/blocks";
import { isChainUnreachable, refusalReason } from "@/lib/chain/failures";
import { lookupReceipt, waitForReceiptEarly } from "@/lib/chain/receipts";
import { env } from "@/lib/env";
import { paysChallenge } from "./mpp-proof";
import { tempoHead, tempoReader } from "./tempo";
import {
  type ClaimedPayment,
  CredentialRefused,
  type ReadCredential,
  type Reconciled,
  type Settlement,
  SettlementError,
} from "./types";

/** A verified MPP credential, ready to settle: its read, its challenge's expiry, its canonical signed bytes. */
type VerifiedMpp = {
  read: ReadCredential & { reference: Hash };
  challenge: { id: string; expires?: string };
  transaction: Hex;
};

/**
 * Settles a verified MPP credential: broadcasts the payer's transaction without simulating it again (mppx's
 * broadcastCredential would, three times), then proves the payment from its receipt. The claim makes this the
 * only sender; a payer who spends the money meanwhile gets a revert or refusal, failing or freeing the claim.
 */
export async function settleMpp({ read, challenge, transaction }: VerifiedMpp): Promise<Settlement> {
  try {
    Expires.assert(challenge.expires, challenge.id);
  } catch {
    throw new CredentialRefused("its challenge expired before the transaction could be sent");
  }
  const claim: ClaimedPayment = { ...read, txRef: read.reference, createdAt: new Date() };
  let outcome: Proven;
  try {
    const receipt = await broadcastSigned(transaction, read.reference);
    if (receipt.transactionHash.toLowerCase() !== read.reference.toLowerCase()) {
      throw new Error("the node answered the send with another transaction's receipt");
    }
    outcome = judge(receipt, claim);
  } catch (error) {
    outcome = await unanswered(claim, error);
  }
  if (outcome.state === "unsettled") throw new SettlementError(outcome.reason);
  return { txRef: read.reference, headers: receiptHeaders(read.reference) };
}

/**
 * What a send that did not answer with a receipt did, from the chain: settled or unsettled when a
 * receipt exists; refused (nothing sent, the credential unspent) only when the node answered with a
 * refusal and does not hold the transaction. Anything else is thrown: the claim stays open.
 */
async function unanswered(claim: ClaimedPayment, error: unknown): Promise<Proven> {
  const outcome = await reconcileMpp(claim);
  if (outcome.state !== "pending") return outcome;
  const refused =
    !(error instanceof SentUnconfirmed) &&
    !isChainUnreachable(error) &&
    !(await nodeHolds(claim.txRef as Hash));
  if (refused) throw new CredentialRefused(refusalReason(error));
  throw error;
}

/** The node accepted the transaction, and its receipt could not be had in time: it may still land. */
class SentUnconfirmed extends Error {
  constructor(cause: unknown) {
    super(`the payment transaction was sent and is not confirmed yet: ${refusalReason(cause)}`, { cause });
    this.name = "SentUnconfirmed";
  }
}

// Whether the node answers eth_sendRawTransactionSync (send and receipt in one round trip): assumed,
// and learnt otherwise from the first "no such method", after which a process sends and then polls.
let syncSend = true;

/** Sends signed bytes and returns their receipt; re-sending bytes the chain already has is harmless. */
async function broadcastSigned(serialized: Hex, hash: Hash): Promise<TransactionReceipt> {
  const client = tempoReader();
  if (syncSend) {
    try {
      return await sendRawTransactionSync(client, { serializedTransaction: serialized });
    } catch (error) {
      if (!unsupportedMethod(error)) throw error;
      syncSend = false;
    }
  }
  await sendRawTransaction(client, { serializedTransaction: serialized });
  const receipts = {
    getTransactionReceipt: (args: { hash: Hash }) => getTransactionReceipt(client, args),
    waitForTransactionReceipt: (args: { hash: Hash; timeout?: number }) =>
      waitForTransactionReceipt(client, args),
  };
  return waitForReceiptEarly(receipts, { hash, timeout: env().X402_TIMEOUT_MS }).catch((error: unknown) => {
    throw new SentUnconfirmed(error);
  });
}

/** Whether an RPC error says the node does not offer the method (nothing was sent). */
function unsupportedMethod(error: unknown): boolean {
  if (!(error instanceof BaseError)) return false;
  const named = error.walk(
    (e) => e instanceof MethodNotFoundRpcError || e instanceof MethodNotSupportedRpcError,
  );
  return (
    Boolean(named) || /method[^.]*(not found|not supported|does not exist|not available)/i.test(error.message)
  );
}

/** Whether the node knows the transaction (mined or waiting in its pool); a lookup that fails counts as yes. */
async function nodeHolds(hash: Hash): Promise<boolean> {
  try {
    await getTransaction(tempoReader(), { hash });
    return true;
  } catch (error) {
    return !(error instanceof TransactionNotFoundError);
  }
}

/** What a mined transaction's receipt proves. */
type Proven = Exclude<Reconciled, { state: "pending" }>;

/** Whether a receipt proves the claimed payment: the payer's transfer of the amount to the recipient. */
function judge(receipt: TransactionReceipt, claim: ClaimedPayment): Proven {
  const challengeId = claim.paymentKey.replace(/^mpp:/, "");
  return paysChallenge(receipt, { ...claim, currency: claim.asset, challengeId })
    ? { state: "settled", txRef: claim.txRef ?? receipt.transactionHash }
    : { state: "unsettled", reason: "the payment transaction moved no money to the recipient" };
}

/**
 * What became of a claimed MPP payment, from the chain only: the payer's transaction's receipt must
 * carry the transfer of the amount to the recipient, with the memo bound to this challenge. Not mined
 * is final only once its expiring nonce has lapsed by the clock of a fresh head, read before the lookup.
 */
export async function reconcileMpp(claim: ClaimedPayment): Promise<Reconciled> {
  if (!claim.txRef) return { state: "unsettled", reason: "the ledger row names no transaction" };
  const validBefore = BigInt(Math.floor(claim.expiresAt.getTime() / 1000));
  const head = await tempoHead();
  const receipt = await lookupReceipt(tempoReader(), claim.txRef as Hex);
  if (receipt) return judge(receipt, claim);
  // "Not mined" is final only behind a fresh head that is past validBefore (lapsed throws otherwise).
  return lapsed(head, validBefore)
    ? { state: "unsettled", reason: "the payment transaction expired unmined" }
    : { state: "pending" };
}

/** The Payment-Receipt header of a settled MPP payment. */
export function receiptHeaders(txRef: string): Record<string, string> {
  const receipt = Receipt.from({
    method: "tempo",
    reference: txRef,
    status: "success",
    timestamp: new Date().toISOString(),
  });
  return { "Payment-Receipt": Receipt.serialize(receipt) };
}
