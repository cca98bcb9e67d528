import "server-only";
import { randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import { optionalSignIn } from "@/lib/auth/siwx";
import { SQLSTATE, sqlStateOf } from "@/lib/db/errors";
import { feedback, namespaces } from "@/lib/db/schema";
import { publicUrl } from "@/lib/http/resource";
import { fulfilment, NotAwaitingFulfilment } from "@/lib/payment/ledger";
import { hasPaymentCredential, runPaid } from "@/lib/payment/paid";
import { PRICES } from "@/lib/payment/prices";
import type { PaidContext } from "@/lib/payment/types";
import type { SubmitFeedbackInput } from "@/lib/schemas/feedback";
import { webhookOutboxCte } from "@/lib/webhooks/outbox";
import { targetsOf } from "./targets";

/** A submitter that also proved its wallet with a sign-in, checked before payment. */
export type SignedIn = { address: string; did: string } | null;

/** 128 random bits: ids cannot be guessed or enumerated. */
export function newFeedbackId(): string {
  return `fb_${randomBytes(16).toString("base64url")}`;
}

/**
 * Stores a paid-for feedback item; `verified` only when the sign-in proof is for the paying wallet.
 * It is one statement, so one round trip and atomic on its own: the ledger row becomes fulfilled, the
 * item is stored bound to it, and `feedback.created` joins the webhook outbox when the namespace has a
 * webhook. This is the hot path of the service, so nothing else may be added to it.
 */
export async function submitFeedback(input: SubmitFeedbackInput, signedIn: SignedIn, ctx: PaidContext) {
  const { db } = ctx;
  const id = newFeedbackId();
  const createdAt = new Date();
  const verified = signedIn !== null && signedIn.address.toLowerCase() === ctx.payer.toLowerCase();
  const paid = db.$with("paid").as(fulfilment(db, ctx, id));
  const hook = webhookOutboxCte(db, input.namespace, "feedback.created", {
    id,
    namespace: input.namespace,
    type: input.type,
    title: input.title,
    severity: input.severity ?? null,
    createdAt: createdAt.toISOString(),
  });
  let stored: { registered: boolean } | undefined;
  try {
    [stored] = await db
      .with(paid, hook)
      .insert(feedback)
      .values({
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
        // The fulfilled ledger row's id: when the payment is not awaiting fulfilment there is none, and
        // NOT NULL refuses the whole statement (the item, the ledger update and the outbox row).
        paymentId: sql<string>`(select ${paid.id} from ${paid})`,
        createdAt,
      })
      .returning({
        registered: sql<boolean>`exists (select 1 from ${namespaces} where ${namespaces.name} = ${input.namespace})`,
      });
  } catch (error) {
    if (sqlStateOf(error) === SQLSTATE.notNullViolation) throw new NotAwaitingFulfilment(ctx.paymentId);
    throw error;
  }
  const registered = Boolean(stored?.registered);
  return {
    resultId: id,
    body: { id, namespace: input.namespace, registered, createdAt: createdAt.toISOString() },
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
