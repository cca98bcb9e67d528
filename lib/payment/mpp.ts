import "server-only";
import { randomBytes } from "node:crypto";
import { Challenge, Credential, Errors, Expires, PaymentRequest } from "mppx";
import { Mppx, tempo } from "mppx/server";
import { BaseError, fromRlp, getAddress, type Hash, type Hex, keccak256, maxUint256 } from "viem";
import { Transaction } from "viem/tempo";
import { isChainUnreachable, refusalReason } from "@/lib/chain/failures";
import {
  deserializeTempoTransaction,
  provenTempoSender,
  type TempoTransaction,
} from "@/lib/chain/tempo-transaction";
import { env } from "@/lib/env";
import { AppError } from "@/lib/http/errors";
import { formatUsd, toAssetUnits } from "@/lib/money";
import { receiptHeaders, reconcileMpp, settleMpp } from "./mpp-settle";
import { databaseMppStore } from "./mpp-store";
import { tempoAnswers, tempoReader } from "./tempo";
import { TimeoutError } from "./timeout";
import type { Charge, PaymentProtocol, ReadCredential, VerifiedPayment } from "./types";

/** The longest a signed payment transaction may stay valid: its expiring nonce bounds the claim's life. */
const MAX_VALIDITY_SECONDS = 600;
const PROBLEMS = "https://paymentauth.org/problems";

function createMppx() {
  const e = env();
  return Mppx.create({
    methods: [
      tempo.charge({
        currency: e.MPP_CURRENCY as Hex,
        recipient: e.MPP_RECIPIENT as Hex,
        getClient: () => tempoReader(),
        // Our settlement sends the transaction itself, and the ledger's unique claim refuses replays; mppx
        // writes replay markers only in its own broadcast, and would then share them across instances.
        store: databaseMppStore(),
      }),
    ],
    secretKey: e.MPP_SECRET_KEY,
    // The public host's name (no port): what the challenge's realm means, and what `mppx validate` checks.
    realm: e.MPP_REALM ?? new URL(e.PUBLIC_ORIGIN).hostname,
  });
}

let instance: ReturnType<typeof createMppx> | undefined;
// Created on first use: `next build` has no secret, and every instance shares the database store.
const mppx = () => {
  instance ??= createMppx();
  return instance;
};

/**
 * The `opaque` key of the random value in every challenge we issue. A challenge's id is an HMAC of its fields
 * alone, so without one two payers asking the same price in the same millisecond get the same id (the
 * ledger's key for an MPP payment), and the second payment is refused as a replay of the first.
 */
const CHALLENGE_NONCE = "nonce";
const NONCE_PATTERN = /^[A-Za-z0-9_-]{16}$/;

/** The nonce of a credential's challenge, or null when its challenge carries none of ours. */
function challengeNonce(credential: Credential.Credential): string | null {
  const { opaque } = credential.challenge as { opaque?: unknown };
  if (typeof opaque !== "string") return null;
  try {
    const nonce = (PaymentRequest.deserialize(opaque) as Record<string, unknown>)[CHALLENGE_NONCE];
    return typeof nonce === "string" && NONCE_PATTERN.test(nonce) ? nonce : null;
  } catch {
    return null;
  }
}

/** The route binding of a charge: scope is method + path, so a challenge for one route never pays another. */
function routeOptions(charge: Charge, nonce: string) {
  const url = new URL(charge.resourceUrl);
  return {
    scope: `${charge.method} ${url.pathname}`,
    meta: { [CHALLENGE_NONCE]: nonce },
    realm: mppx().realm,
    // Only "pull" (the server broadcasts the payer's signed transaction): nothing moves before we claim it.
    request: { amount: formatUsd(charge.amountMicroUsd), supportedModes: ["pull"] as ("pull" | "push")[] },
  };
}

/** An MPP refusal carries MPP's own problem type, as its clients expect. */
function mppRefusal(error: unknown): AppError {
  if (error instanceof Errors.PaymentError) {
    const problem = error.toProblemDetails();
    return new AppError("payment-invalid", problem.detail ?? error.message, { type: problem.type });
  }
  return new AppError("payment-invalid", "The Authorization: Payment credential could not be read.", {
    type: `${PROBLEMS}/malformed-credential`,
  });
}

function invalidPayload(field: string, message: string): AppError {
  return new AppError("payment-invalid", `The MPP payment was refused: ${field} ${message}.`, {
    type: `${PROBLEMS}/invalid-payload`,
    errors: [{ field, message }],
  });
}

const CREDENTIAL_FIELDS = new Set(["challenge", "payload", "source"]);
const CHALLENGE_FIELDS = new Set([
  "id",
  "realm",
  "method",
  "intent",
  "request",
  "expires",
  "description",
  "digest",
  "opaque",
]);
const PAYLOAD_FIELDS = new Set(["type", "signature"]);

/** The credential's wire JSON, as the client sent it (mppx's own reading drops what it does not know). */
function wireOf(request: Request): Record<string, unknown> {
  const token = /^\s*payment\s+(\S+)/i.exec(request.headers.get("authorization") ?? "")?.[1] ?? "";
  return JSON.parse(Buffer.from(token, "base64url").toString("utf8")) as Record<string, unknown>;
}

/** The first field of the credential's wire JSON that MPP does not define; null when there is none. */
function unknownField(wire: Record<string, unknown>): string | null {
  const extra = (object: unknown, known: Set<string>, prefix: string) =>
    Object.keys((object ?? {}) as object)
      .filter((key) => !known.has(key))
      .map((key) => `${prefix}${key}`)[0];
  return (
    extra(wire, CREDENTIAL_FIELDS, "") ??
    extra(wire.challenge, CHALLENGE_FIELDS, "challenge.") ??
    extra(wire.payload, PAYLOAD_FIELDS, "payload.") ??
    null
  );
}

type ReadMpp = {
  credential: Credential.Credential;
  nonce: string;
  /** The signed transaction in its canonical encoding: the bytes broadcast, whose hash is the reference. */
  transaction: Hex;
  read: ReadCredential & { reference: Hash };
};
const reads = new WeakMap<Request, Promise<ReadMpp>>();

/**
 * Reads an MPP credential strictly, without the network: it decodes, its challenge has not expired, and it is
 * a signed Tempo transaction whose expiring nonce lapses within ten minutes, which bounds the claim's life.
 * Its hash is taken from the canonical encoding, the one the chain records.
 */
async function readMpp(request: Request, charge: Charge): Promise<ReadMpp> {
  let credential: Credential.Credential;
  try {
    credential = Credential.fromRequest(request);
    Expires.assert(credential.challenge.expires, credential.challenge.id);
  } catch (error) {
    throw mppRefusal(error);
  }
  const nonce = challengeNonce(credential);
  if (!nonce)
    throw invalidPayload("challenge.opaque", "is not the metadata of a challenge this route issued");
  const payload = credential.payload as { type?: unknown; signature?: unknown } | null;
  if (payload?.type !== "transaction") {
    throw invalidPayload(
      "payload.type",
      'must be "transaction": the service broadcasts your signed transaction',
    );
  }
  const wire = wireOf(request);
  const unknown = unknownField(wire);
  if (unknown) throw invalidPayload(unknown, "is not a field of an MPP credential");
  const signed = payload.signature;
  if (typeof signed !== "string" || !/^0x7[68](?:[0-9a-fA-F]{2})+$/.test(signed) || signed.length > 65_536) {
    throw invalidPayload("payload.signature", "must be a serialized Tempo transaction (0x76…)");
  }
  let tx: TempoTransaction & {
    from?: Hex;
    nonceKey?: bigint;
    validBefore?: number | bigint;
  };
  let canonical: Hex;
  try {
    // The envelope must be exactly one RLP list after its type byte: no trailing bytes.
    fromRlp(`0x${signed.slice(4)}`);
    tx = deserializeTempoTransaction(signed as Hex);
    canonical = (await Transaction.serialize(tx as never)) as Hex;
  } catch {
    throw invalidPayload("payload.signature", "is not a well-formed signed Tempo transaction");
  }
  // The bytes broadcast are the bytes sent. The reader lets other bytes through for the same transaction
  // (an empty string written as an empty list, a signature's v of 0x2b): such a credential is not what
  // its payer's wallet wrote, and it is refused before anything is claimed.
  if (canonical.toLowerCase() !== signed.toLowerCase()) {
    throw invalidPayload("payload.signature", "is not a canonical encoding of a signed Tempo transaction");
  }
  if (!tx.from) throw invalidPayload("payload.signature", "is not signed by the payer");
  const now = Math.floor(Date.now() / 1000);
  const validBefore = tx.validBefore === undefined ? undefined : BigInt(tx.validBefore);
  if (tx.nonceKey !== maxUint256 || validBefore === undefined) {
    throw invalidPayload("payload.signature", "must use an expiring nonce (nonceKey max, validBefore set)");
  }
  if (validBefore <= BigInt(now)) {
    // Its own words: a payment that waited too long (the network was down, the client retried late) has
    // lapsed, which "must expire within 600 seconds" would not tell its payer.
    const at = new Date(Number(validBefore) * 1000).toISOString();
    throw invalidPayload(
      "payload.signature",
      `has expired: its transaction could be sent until ${at} and was not, so nothing was charged; sign a new payment from a new challenge`,
    );
  }
  if (validBefore > BigInt(now + MAX_VALIDITY_SECONDS)) {
    throw invalidPayload("payload.signature", `must expire within ${MAX_VALIDITY_SECONDS} seconds from now`);
  }
  const e = env();
  const payer = getAddress(tx.from);
  // Fields the challenge's HMAC does not cover must still be what was issued, and who signed.
  if ((wire.challenge as { description?: unknown }).description !== charge.description) {
    throw invalidPayload("challenge.description", "is not the description this route issued");
  }
  const source = /^did:pkh:eip155:(\d+):(0x[0-9a-fA-F]{40})$/.exec(String(wire.source));
  const sourceIsPayer =
    source?.[1] === String(e.TEMPO_CHAIN_ID) && source[2]?.toLowerCase() === payer.toLowerCase();
  if ("source" in wire && !sourceIsPayer) {
    throw invalidPayload("source", "is not the wallet that signed the transaction, on this chain");
  }
  return {
    credential,
    nonce,
    transaction: canonical,
    read: {
      protocol: "mpp",
      // One payment per challenge: the challenge id is HMAC-bound to this route, price and expiry.
      paymentKey: `mpp:${credential.challenge.id}`,
      payer,
      // A Tempo account's transaction is signed by its own key (or one it registered): never a contract.
      payerContractOn: null,
      amount: toAssetUnits(charge.amountMicroUsd, 6).toString(),
      asset: e.MPP_CURRENCY,
      network: `eip155:${e.TEMPO_CHAIN_ID}`,
      payTo: e.MPP_RECIPIENT,
      expiresAt: new Date(Number(validBefore) * 1000),
      reference: keccak256(canonical),
    },
  };
}

function readOnce(request: Request, charge: Charge): Promise<ReadMpp> {
  let pending = reads.get(request);
  if (!pending) {
    pending = readMpp(request, charge);
    reads.set(request, pending);
  }
  return pending;
}

type PullDetails = { mode: string; sender?: Hex; serializedTransaction?: Hex };

export const mppProtocol: PaymentProtocol = {
  name: "mpp",
  replayProblemType: `${PROBLEMS}/invalid-challenge`,

  hasCredential: (request) => /^\s*payment\s/i.test(request.headers.get("authorization") ?? ""),

  credentialOf: (request) => request.headers.get("authorization") ?? "",

  offers: () => true,

  async challenge(charge) {
    // Not offered while its network cannot be reached: the 402 then carries the other protocols only.
    if (!(await tempoAnswers())) {
      throw new AppError(
        "payment-unavailable",
        "The Tempo network cannot be reached right now, so MPP is not offered; nothing was charged.",
        { headers: { "retry-after": "5" } },
      );
    }
    const { scope, meta, request } = routeOptions(charge, randomBytes(12).toString("base64url"));
    const challenge = await mppx().challenge.tempo.charge({
      ...request,
      scope,
      meta,
      description: charge.description,
    });
    return { headers: { "WWW-Authenticate": Challenge.serialize(challenge) }, body: {} };
  },

  keyOf(request) {
    try {
      return `mpp:${Credential.fromRequest(request).challenge.id}`;
    } catch {
      return null;
    }
  },

  async read(request, charge) {
    return (await readOnce(request, charge)).read;
  },

  async verify(request, charge, read): Promise<VerifiedPayment> {
    const { credential, nonce, transaction, read: own } = await readOnce(request, charge);
    let details: PullDetails;
    try {
      // The one simulation of the payer's transaction (mppx checks the challenge, route, transfer and
      // memo, then simulates it); settling sends it without asking mppx, which would simulate it twice more.
      details = (await mppx().validateCredential(credential, routeOptions(charge, nonce)))
        .details as PullDetails;
    } catch (error) {
      if (error instanceof Errors.PaymentError) throw mppRefusal(error);
      // Anything thrown that is not the chain's (a challenge field that does not parse) is the credential's.
      if (!(error instanceof BaseError)) {
        if (error instanceof TimeoutError) throw error;
        throw mppRefusal(error);
      }
      if (isChainUnreachable(error)) throw error;
      // The chain answered the simulation with a refusal (a revert, a fee it cannot pay): final.
      throw new AppError(
        "payment-invalid",
        `The payment transaction would fail on chain, so nothing was charged: ${refusalReason(error)}.`,
        { type: `${PROBLEMS}/verification-failed` },
      );
    }
    if (details.mode !== "pull" || !details.sender || getAddress(details.sender) !== read.payer) {
      throw invalidPayload("payload.signature", "must be a transaction signed by the paying wallet");
    }
    return {
      ...read,
      settle: () => settleMpp({ read: own, challenge: credential.challenge, transaction }),
    };
  },

  async provePayer(request, charge, read) {
    const { transaction } = await readOnce(request, charge);
    if (provenTempoSender(transaction) === read.payer.toLowerCase()) return null;
    // Nothing else proves the sender before broadcasting: mppx's verification simulates the
    // transaction without its signature, so it takes the sender the transaction names on trust.
    throw invalidPayload(
      "payload.signature",
      "does not prove that the paying wallet signed it: an Idempotency-Key is answered only for a transaction signed with the wallet's own key",
    );
  },

  reconcile: reconcileMpp,

  receiptHeaders: ({ txRef }) => receiptHeaders(txRef),
};
