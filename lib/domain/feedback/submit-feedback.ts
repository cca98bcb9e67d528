import "server-only";
import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { optionalSignIn } from "@/lib/auth/siwx";
import { feedback, namespaces } from "@/lib/db/schema";
import { publicUrl } from "@/lib/http/resource";
import { hasPaymentCredential, runPaid } from "@/lib/payment/paid";
import { PRICES } from "@/lib/payment/prices";
import type { PaidContext } from "@/lib/payment/types";
import type { SubmitFeedbackInput } from "@/lib/schemas/feedback";
import { enqueueWebhook } from "@/lib/webhooks/outbox";
import { targetsOf } from "./targets";

/** A submitter that also proved its wallet with a sign-in, checked before payment. */
export type SignedIn = { address: string; did: string } | null;

/** 128 random bits: ids cannot be guessed or enumerated. */
export function newFeedbackId(): string {
  return `fb_${randomBytes(16).toString("base64url")}`;
}

/** Stores a paid-for feedback item; `verified` only when the sign-in proof is for the paying wallet. */
export async function submitFeedback(input: SubmitFeedbackInput, signedIn: SignedIn, ctx: PaidContext) {
  const id = newFeedbackId();
  const createdAt = new Date();
  const verified = signedIn !== null && signedIn.address.toLowerCase() === ctx.payer.toLowerCase();
  await ctx.tx.insert(feedback).values({
    id,
    namespace: input.namespace,
    type: input.type,
    title: input.title,
    description: input.description,
    severity: input.severity,
    steps: input.steps,
    expected: input.expected,
    actual: input.actual,
    context: input.context,
    metadata: input.metadata,
    targets: targetsOf(input.namespace, input.metadata),
    verified,
    submitterDid: verified && signedIn ? signedIn.did : null,
    submitterWallet: ctx.payer,
    paymentId: ctx.paymentId,
    createdAt,
  });
  const [ns] = await ctx.tx
    .select({ name: namespaces.name })
    .from(namespaces)
    .where(eq(namespaces.name, input.namespace))
    .limit(1);
  if (ns) {
    await enqueueWebhook(ctx.tx, input.namespace, "feedback.created", {
      id,
      namespace: input.namespace,
      type: input.type,
      title: input.title,
      severity: input.severity ?? null,
      createdAt: createdAt.toISOString(),
    });
  }
  return {
    resultId: id,
    body: { id, namespace: input.namespace, registered: Boolean(ns), createdAt: createdAt.toISOString() },
  };
}

/** POST /feedback: takes 0.01 USD and stores the item under any namespace name, registered or not. */
export async function submitFeedbackPaid(request: Request, input: SubmitFeedbackInput): Promise<Response> {
  // Checked only on the paid retry, so the unpaid first ask does not spend the proof's nonce; an
  // invalid proof is still refused before the payment is taken.
  const signedIn = hasPaymentCredential(request) ? await optionalSignIn(request) : null;
  return runPaid(request, {
    charge: {
      operation: "feedback",
      method: "POST",
      amountMicroUsd: PRICES.feedback,
      resourceUrl: publicUrl(request),
      description: "Submitting feedback",
    },
    input: { ...input, signedIn },
    commit: (ctx) => submitFeedback(input, signedIn, ctx),
  });
}
