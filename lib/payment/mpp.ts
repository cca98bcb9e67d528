import "server-only";
import { Challenge, Credential, Errors, Receipt } from "mppx";
import { Mppx, tempo } from "mppx/server";
import { getAddress, type Hex, keccak256 } from "viem";
import { env } from "@/lib/env";
import { AppError } from "@/lib/http/errors";
import { databaseMppStore } from "./mpp-store";
import { formatUsd } from "./prices";
import { minedStatus, tempoReader } from "./tempo";
import { type Charge, type PaymentProtocol, SettlementError, type VerifiedPayment } from "./types";

function createMppx() {
  const e = env();
  return Mppx.create({
    methods: [
      tempo.charge({
        currency: e.MPP_CURRENCY as Hex,
        recipient: e.MPP_RECIPIENT as Hex,
        getClient: () => tempoReader(),
        store: databaseMppStore(),
      }),
    ],
    secretKey: e.MPP_SECRET_KEY,
    realm: e.MPP_REALM ?? new URL(e.PUBLIC_ORIGIN).host,
  });
}

let instance: ReturnType<typeof createMppx> | undefined;
// Created on first use: `next build` has no secret, and every instance shares the database store.
const mppx = () => {
  instance ??= createMppx();
  return instance;
};

/** The route binding of a charge: scope is method + path, so a challenge for one route never pays another. */
function routeOptions(charge: Charge) {
  const url = new URL(charge.resourceUrl);
  return {
    scope: `${charge.method} ${url.pathname}`,
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
    type: "https://paymentauth.org/problems/malformed-credential",
  });
}

type PullDetails = { mode: string; sender?: Hex; serializedTransaction?: Hex };

export const mppProtocol: PaymentProtocol = {
  name: "mpp",
  replayProblemType: "https://paymentauth.org/problems/invalid-challenge",

  hasCredential: (request) => /^\s*payment\s/i.test(request.headers.get("authorization") ?? ""),

  async challenge(charge) {
    const { scope, request } = routeOptions(charge);
    const challenge = await mppx().challenge.tempo.charge({
      ...request,
      scope,
      description: charge.description,
    });
    return { headers: { "WWW-Authenticate": Challenge.serialize(challenge) }, body: {} };
  },

  async verify(request, charge): Promise<VerifiedPayment> {
    const options = routeOptions(charge);
    let credential: ReturnType<typeof Credential.fromRequest>;
    try {
      credential = Credential.fromRequest(request);
    } catch (error) {
      throw mppRefusal(error);
    }
    const validation = await mppx()
      .validateCredential(credential, options)
      .catch((error: unknown) => {
        if (error instanceof Errors.PaymentError) throw mppRefusal(error);
        throw error;
      });
    const details = validation.details as PullDetails;
    if (details.mode !== "pull" || !details.sender || !details.serializedTransaction) {
      throw new AppError(
        "payment-invalid",
        "Send the payment as a signed transaction for the service to broadcast.",
        {
          type: "https://paymentauth.org/problems/invalid-payload",
        },
      );
    }
    const txHash = keccak256(details.serializedTransaction);
    const e = env();
    return {
      protocol: "mpp",
      // One payment per challenge: the challenge id is HMAC-bound to this route, price and expiry.
      paymentKey: `mpp:${credential.challenge.id}`,
      payer: getAddress(details.sender),
      amount: String(validation.challenge.request.amount),
      asset: e.MPP_CURRENCY,
      network: `eip155:${e.TEMPO_CHAIN_ID}`,
      payTo: e.MPP_RECIPIENT,
      expiresAt: credential.challenge.expires ? new Date(credential.challenge.expires) : null,
      reference: txHash,
      async settle() {
        try {
          const receipt = await mppx().broadcastCredential(credential, options);
          return { txRef: receipt.reference, headers: { "Payment-Receipt": Receipt.serialize(receipt) } };
        } catch (error) {
          // Whatever mppx reports, the chain decides whether the payer's transaction moved money.
          const mined = await minedStatus(txHash);
          if (mined === "success") {
            const receipt = Receipt.from({
              method: "tempo",
              reference: txHash,
              status: "success",
              timestamp: new Date().toISOString(),
            });
            return { txRef: txHash, headers: { "Payment-Receipt": Receipt.serialize(receipt) } };
          }
          if (mined === "reverted" || error instanceof Errors.PaymentError) {
            throw new SettlementError(
              error instanceof Error ? error.message : "the payment transaction failed",
            );
          }
          throw error;
        }
      },
    };
  },

  async reconcile(claim) {
    if (claim.txRef) {
      const mined = await minedStatus(claim.txRef as Hex);
      if (mined === "success") return { state: "settled", txRef: claim.txRef };
      if (mined === "reverted") return { state: "unsettled" };
    }
    // Tempo's expiring nonces: once the challenge (and the transaction signed for it) expired unmined, it never will be.
    return claim.expiresAt && claim.expiresAt.getTime() + 60_000 < Date.now()
      ? { state: "unsettled" }
      : { state: "pending" };
  },
};
