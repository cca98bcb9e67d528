/** The phases section, in-process: a paid x402 submission's claim, settle and commit, through lib/payment. */
import { getDb } from "../../lib/db/client";
import { submitFeedback } from "../../lib/domain/feedback/submit-feedback";
import { commitPaid } from "../../lib/payment/commit-paid";
import { claimPayment } from "../../lib/payment/ledger";
import { forgetSignedOffers, signedOfferExtension } from "../../lib/payment/offer-receipt";
import { x402Protocol } from "../../lib/payment/x402";
import { submitFeedbackSchema } from "../../lib/schemas/feedback";
import type { DevnetInfo } from "../devnet/start-devnet";
import { config } from "./config";
import { closedLoop, now, summarize } from "./load";
import { x402Payers } from "./paid";

/** The submission's price, as the service charges it. */
export const feedbackCharge = (info: DevnetInfo) => {
  const resourceUrl = `${info.appUrl}/api/namespace/feedback`;
  return {
    operation: "feedback",
    method: "POST" as const,
    amountMicroUsd: 10_000n,
    resourceUrl,
    description: "Submitting feedback",
  };
};

export async function phases(info: DevnetInfo) {
  const [db, charge, payers] = [await getDb(), feedbackCharge(info), x402Payers(info)];
  const required = (await x402Protocol.challenge(charge)).headers["PAYMENT-REQUIRED"]!;
  const item = { namespace: "bench-phases", type: "bug", title: "Benchmark phases item", severity: "low" };
  const input = submitFeedbackSchema.parse({
    ...item,
    description: "Timing claim, settle and commit in-process.",
  });
  const claimed = { operation: "feedback", lockKey: null, requestHash: "bench" };
  const out = [];
  for (const concurrency of config.phasesConcurrency) {
    const sign = (_: unknown, i: number) => payers[i % payers.length]!.sign(required);
    const signatures = await Promise.all(Array.from({ length: config.phasesRequests }, sign));
    const [claims, settles, commits]: [number[], number[], number[]] = [[], [], []];
    // The submission's own path (lib/payment/paid.ts): claimed as it is read, then one settle that verifies.
    const load = await closedLoop(config.phasesRequests, concurrency, async (i) => {
      const request = new Request(charge.resourceUrl, {
        method: "POST",
        headers: { "payment-signature": signatures[i]! },
      });
      const t0 = now();
      const peeked = await x402Protocol.read(request, charge);
      const claim = await claimPayment(db, { payment: peeked, ...claimed, request: { bench: true } });
      const t1 = now();
      if (!claim.ok) return `claim refused: ${claim.reason}`;
      const { txRef } = await x402Protocol.settleUnverified!(request, charge);
      const t2 = now();
      const { payer, payerContractOn, protocol } = peeked;
      const paid = { db, paymentId: claim.paymentId, txRef, payer, payerContractOn, protocol };
      await commitPaid((ctx) => submitFeedback({ ...input, signedIn: null }, ctx), paid);
      claims.push(t1 - t0);
      settles.push(t2 - t1);
      commits.push(now() - t2);
      return null;
    });
    const steps = { claimDb: summarize(claims), settle: summarize(settles), commitDb: summarize(commits) };
    out.push({ concurrency, load, phases: steps });
  }
  return { x402: out, challenge: await challengeCost(charge, required) };
}

/**
 * What a 402 costs to make: the whole x402 challenge as the routes build it, with the signed offer kept (as
 * served) and, the anchor, with it signed for every 402 (as before offers were kept); and the offer's
 * signature alone (the offer-receipt extension, where OFFER_RECEIPT_PRIVATE_KEY is set, as on the devnet).
 * One after another, so none waits on another.
 */
async function challengeCost(charge: ReturnType<typeof feedbackCharge>, required: string) {
  const requirement = JSON.parse(Buffer.from(required, "base64").toString("utf8")).accepts[0];
  const each = async (n: number, fn: () => Promise<unknown>, before = () => {}) => {
    const ms: number[] = [];
    for (let i = 0; i < n; i++) {
      before();
      const t = now();
      await fn();
      ms.push(now() - t);
    }
    return summarize(ms);
  };
  const signed = (await signedOfferExtension(charge.resourceUrl, requirement)) !== undefined;
  const challenge = () => x402Protocol.challenge(charge);
  return {
    offerSigned: signed,
    challengeMs: await each(config.phasesRequests, challenge),
    challengeSignedEachMs: signed ? await each(config.phasesRequests, challenge, forgetSignedOffers) : null,
    offerSignatureMs: signed
      ? await each(
          config.phasesRequests,
          () => signedOfferExtension(charge.resourceUrl, requirement),
          forgetSignedOffers,
        )
      : null,
  };
}
