import "server-only";
import { type DbOrTx, getDb } from "@/lib/db/client";
import { env } from "@/lib/env";
import { AppError } from "@/lib/http/errors";
import { json } from "@/lib/http/handler";
import { refuseWhenBusy } from "@/lib/http/load-shed";
import { describeError } from "@/lib/http/log";
import { enforcePaidAddressLimit } from "@/lib/http/rate-limit";
import { noteRequest } from "@/lib/http/request-context";
import { ServerTiming } from "@/lib/http/server-timing";
import { type PaidOutcome, paidOutcome, recordPaid } from "@/lib/http/service-metrics";
import { answerSeen, deliveredHeaders, pending, unavailable, withPaymentId } from "./answers";
import { paymentRequired, protocolOf, withFreshChallenge } from "./challenge";
import { commitPaid } from "./commit-paid";
import { agreedIdempotencyKey, answerRetry, idempotencyKeyOf, underSameKey } from "./idempotency";
import {
  claimPayment,
  credentialHashOf,
  findPayment,
  NotAwaitingFulfilment,
  type PaymentRow,
  requestHashOf,
  takeOverIdleClaim,
} from "./ledger";
import { settle } from "./settle";
import type {
  Charge,
  PaidCall,
  PaidContext,
  PaidWrite,
  PaymentProtocol,
  ReadCredential,
  VerifiedPayment,
} from "./types";

/**
 * Runs a paid write in the one safe order (read → checks → verify → claim → settle → store; README.md):
 * every refusal comes before any charge, and a credential seen before is answered from the ledger, never
 * charged twice. Server-Timing reports the call in slices, each named by the step that ended it.
 */
export async function runPaid<TBody>(request: Request, call: PaidCall<TBody>): Promise<Response> {
  const timing = new ServerTiming();
  const observed: Observed = { protocol: null };
  const record = (outcome: PaidOutcome) =>
    recordPaid({ operation: call.charge.operation, protocol: observed.protocol, outcome }, timing.phases());
  try {
    const response = await runSteps(request, call, timing, observed);
    record(paidOutcome({ stored: timing.phases().some(([phase]) => phase === "store") }));
    return response;
  } catch (error) {
    record(paidOutcome({ error }));
    throw await withFreshChallenge(error, call.charge);
  }
}

/** What the metrics and the request's log line learn about a paid call as it runs. */
type Observed = { protocol: PaymentProtocol["name"] | null };

async function runSteps<TBody>(
  request: Request,
  call: PaidCall<TBody>,
  timing: ServerTiming,
  observed: Observed,
): Promise<Response> {
  const protocol = protocolOf(request, call.charge);
  if (protocol) {
    observed.protocol = protocol.name;
    noteRequest({ protocol: protocol.name });
  }
  // A client past its own limit is told so first, whatever the load: its 429 is decided before the load check,
  // so a flood that is already refused is refused as itself, not answered with every client's 503. Then a
  // process past its CPU takes no new paid call (nothing read or charged).
  await enforcePaidAddressLimit(request);
  refuseWhenBusy();
  // Open the database before any credential exists: an MPP payer signs a transaction that expires
  // about 25 s later, so nothing slow may stand between verifying it and broadcasting it.
  const db = await getDb();
  if (!protocol) {
    await call.prepare(false);
    throw await paymentRequired(call.charge);
  }
  const attempt = startAttempt(request, call, protocol, db);

  const checked = await checkBeforeClaim(attempt);
  if (checked instanceof Response) return checked;
  if (checked.payment) timing.mark("verify");

  const claimed = await claim(attempt, checked);
  if (claimed instanceof Response) return claimed;
  const { paymentId, claimedAt, resumed } = claimed;
  timing.mark("claim");
  noteRequest({ paymentId });

  const { read, write, payment } = checked;
  const settleOnce = payment
    ? payment.settle
    : () =>
        (protocol.settleUnverified as NonNullable<typeof protocol.settleUnverified>)(request, call.charge);
  const settlement = await settle(db, protocol, { ...read, paymentId, resumed }, settleOnce, write.release);
  timing.mark("settle");

  const stored = await store(attempt, checked, { paymentId, txRef: settlement.txRef });
  if (stored instanceof Response) return stored;
  timing.mark("store");

  let body = stored.body;
  if (call.finish) {
    body = await call.finish(stored).catch((error: unknown) => {
      throw withPaymentId(error, paymentId);
    });
    timing.mark("finish");
  }
  const delivered = await deliveredHeaders(
    protocol,
    paymentId,
    { ...read, txRef: settlement.txRef },
    {
      resourceUrl: call.charge.resourceUrl,
      claimedAt,
      operation: call.charge.operation,
      resultId: stored.resultId,
      body: stored.body,
    },
  );
  return json(body, {
    headers: { ...settlement.headers, ...delivered, "server-timing": timing.header() },
  });
}

/** One paid request carrying a credential: what every step needs to know about it. */
type Attempt<TBody> = {
  request: Request;
  call: PaidCall<TBody>;
  protocol: PaymentProtocol;
  db: DbOrTx;
  requestHash: string;
  idempotencyKey: string | null;
  credentialHash: string;
  /** Whether a ledger row was claimed with this very credential (only such a row answers it). */
  sameCredential: (row: PaymentRow) => boolean;
  /** The answer to a credential the ledger has seen (see answerSeen). */
  seen: (row: PaymentRow) => Promise<Response>;
};

/** Everything known once the checks before the claim passed. */
type Checked<TBody> = { read: ReadCredential; write: PaidWrite<TBody>; payment?: VerifiedPayment };

function startAttempt<TBody>(
  request: Request,
  call: PaidCall<TBody>,
  protocol: PaymentProtocol,
  db: DbOrTx,
): Attempt<TBody> {
  const requestHash = requestHashOf(call.body);
  const credentialHash = credentialHashOf(protocol.credentialOf(request));
  return {
    request,
    call,
    protocol,
    db,
    requestHash,
    idempotencyKey: idempotencyKeyOf(request),
    credentialHash,
    // Only the very credential a row was claimed with is answered by that row; another with its key
    // (a tampered copy, a guess from what the chain shows) learns nothing from it.
    sameCredential: (row) => row.credentialHash === null || row.credentialHash === credentialHash,
    seen: (row) =>
      answerSeen(row, {
        requestHash,
        operation: call.charge.operation,
        resourceUrl: call.charge.resourceUrl,
        protocol,
        finish: call.finish,
      }),
  };
}

/**
 * Step 1, before anything is written: read the credential, answer a retry under its Idempotency-Key,
 * check, verify. A refusal of a credential that already has a row (sent again after its request
 * finished: its proof spent, its name taken, its transaction mined) is answered by that row instead.
 */
async function checkBeforeClaim<TBody>(attempt: Attempt<TBody>): Promise<Checked<TBody> | Response> {
  const { request, call, protocol, db, sameCredential, seen } = attempt;
  let read: ReadCredential | undefined;
  try {
    read = await protocol.read(request, call.charge).catch((error: unknown) => {
      if (error instanceof AppError) throw error;
      console.error(`[payment] ${protocol.name} could not read the credential: ${describeError(error)}`);
      throw unavailable();
    });
    attempt.idempotencyKey = agreedIdempotencyKey(attempt.idempotencyKey, read.idempotencyKey);
    // A retry under the same Idempotency-Key is answered by the payment it already made, whatever new
    // credential it carries: that one is never claimed, so it is never charged. The key is the payer's,
    // so a credential that merely names a payer is proven to be theirs before the key is looked up.
    let payment: VerifiedPayment | null = null;
    if (attempt.idempotencyKey) {
      payment = await protocol.provePayer(request, call.charge, read).catch(verificationFailed(protocol));
      const earlier = await underSameKey(db, attempt.idempotencyKey, {
        operation: call.charge.operation,
        payer: read.payer,
      });
      if (earlier) return answerRetry(earlier, attempt.requestHash, seen);
    }
    const write = await call.prepare(true);
    const direct = !write.lockKey && !write.reserve && !write.authorize && protocol.settleUnverified;
    if (direct) return payment ? { read, write, payment } : { read, write };
    payment ??= await verifyCredential(protocol, request, call.charge, read);
    await write.authorize?.(payment);
    return { read, write, payment };
  } catch (error) {
    const key = read?.paymentKey ?? protocol.keyOf(request);
    const row = error instanceof AppError && error.status < 500 && key && (await findPayment(db, key));
    if (row && sameCredential(row)) return seen(row);
    throw error;
  }
}

/**
 * Step 2: claim the credential (and the resource it buys) in the ledger: the payment id to settle, or,
 * when the credential or its key was seen before, the answer to it (a retry, a held resource, a spent
 * credential, the ledger's state), unless it is this request's abandoned claim, taken over and settled
 * (`resumed`: its earlier attempt may have sent the credential).
 */
async function claim<TBody>(
  attempt: Attempt<TBody>,
  checked: Checked<TBody>,
): Promise<{ paymentId: string; claimedAt: Date; resumed?: boolean } | Response> {
  const { db, call, protocol, sameCredential, seen, requestHash } = attempt;
  const { read, write } = checked;
  const claimed = await claimPayment(db, {
    payment: read,
    operation: call.charge.operation,
    lockKey: write.lockKey ?? null,
    request: write.input,
    requestHash,
    credentialHash: attempt.credentialHash,
    idempotencyKey: attempt.idempotencyKey,
    reserve: write.reserve,
  });
  if (claimed.ok) return claimed;
  const raced = await underSameKey(db, attempt.idempotencyKey, {
    operation: call.charge.operation,
    payer: read.payer,
  });
  if (raced && raced.paymentKey !== read.paymentKey) return answerRetry(raced, requestHash, seen);
  if (claimed.reason === "locked") {
    throw (
      write.lockedError?.() ??
      new AppError("payment-in-progress", "Another payment for this resource is in progress.")
    );
  }
  if (!sameCredential(claimed.row)) {
    throw new AppError(
      "payment-already-used",
      "This payment's authorization is already spent by another credential; nothing was charged for this one.",
      { type: protocol.replayProblemType },
    );
  }
  // The same request with the same credential, whose first attempt died mid-way: settle it now.
  // Settling again cannot charge twice (the chain spends a credential once); its outcome decides.
  const taken = await takeOverAbandonedClaim(db, claimed.row, requestHash, call.charge.operation);
  return taken
    ? { paymentId: claimed.row.id, claimedAt: claimed.row.createdAt, resumed: true }
    : seen(claimed.row);
}

/**
 * Step 4, once the money moved: store the write and fulfil the ledger row atomically. If recovery
 * stored it first, the ledger's answer is given; if storing fails, a 503 with the payment id, and
 * recovery stores it from the ledger.
 */
async function store<TBody>(
  attempt: Attempt<TBody>,
  checked: Checked<TBody>,
  settled: { paymentId: string; txRef: string },
): Promise<{ resultId: string; body: TBody } | Response> {
  const { db, protocol, sameCredential, seen } = attempt;
  const { read, write } = checked;
  const ctx: PaidContext = {
    db,
    ...settled,
    payer: read.payer,
    payerContractOn: read.payerContractOn,
    protocol: protocol.name,
  };
  try {
    return await commitPaid(write.commit, ctx);
  } catch (error) {
    const row = error instanceof NotAwaitingFulfilment ? await findPayment(db, read.paymentKey) : undefined;
    if (row?.status === "fulfilled" && sameCredential(row)) return seen(row);
    console.error(`[payment ${settled.paymentId}] storing the paid write failed: ${describeError(error)}`);
    throw pending(settled.paymentId, "Your payment settled, and storing what it paid for failed for now");
  }
}

/**
 * Takes over the claim this same request left open when its attempt died, so it is settled now; false
 * when the row is another request's, no longer open, or its attempt may still be alive.
 */
async function takeOverAbandonedClaim(db: DbOrTx, row: PaymentRow, requestHash: string, operation: string) {
  if (row.status !== "claimed" || row.requestHash !== requestHash || row.operation !== operation)
    return false;
  return takeOverIdleClaim(db, row.id, env().X402_TIMEOUT_MS * 3);
}

/** The protocol's verification; a failure that is not a refusal means the network could not be asked. */
function verifyCredential(
  protocol: PaymentProtocol,
  request: Request,
  charge: Charge,
  read: ReadCredential,
): Promise<VerifiedPayment> {
  return protocol.verify(request, charge, read).catch(verificationFailed(protocol));
}

/** A proof or verification that failed without refusing: the network could not be asked. */
const verificationFailed = (protocol: PaymentProtocol) => (error: unknown) => {
  if (error instanceof AppError) throw error;
  console.error(`[payment] ${protocol.name} verification unavailable: ${describeError(error)}`);
  throw unavailable();
};
