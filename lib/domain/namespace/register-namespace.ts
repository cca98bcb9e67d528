import "server-only";
import { count, eq } from "drizzle-orm";
import { type DbOrTx, getDb } from "@/lib/db/client";
import { feedback, namespaces } from "@/lib/db/schema";
import { AppError } from "@/lib/http/errors";
import { fulfilPayment } from "@/lib/payment/ledger";
import type { PaidContext, PaidWrite } from "@/lib/payment/types";
import type { RegisterNamespaceInput } from "@/lib/schemas/namespace";
import { newWebhookSecret } from "@/lib/webhooks/sign";
import { assertWebhookUrlAllowed } from "@/lib/webhooks/url-check";

const namespaceTaken = (name: string) =>
  new AppError("namespace-taken", `The namespace "${name}" is already registered.`, {
    errors: [{ field: "namespace", message: "is already registered" }],
  });

/** Refuses a taken name before anyone is asked to pay for it. */
async function assertNamespaceAvailable(db: DbOrTx, name: string): Promise<void> {
  const [row] = await db
    .select({ name: namespaces.name })
    .from(namespaces)
    .where(eq(namespaces.name, name))
    .limit(1);
  if (row) throw namespaceTaken(name);
}

/**
 * Registers a paid-for namespace to the paying wallet and claims the feedback already sent to it, in
 * one transaction with the ledger row's fulfilment.
 */
export function registerNamespace(input: RegisterNamespaceInput, ctx: PaidContext) {
  return ctx.db.transaction(async (tx) => {
    const createdAt = new Date();
    await tx.insert(namespaces).values({
      name: input.namespace,
      description: input.description,
      webhookUrl: input.webhookUrl,
      // Always issued, so an owner who adds a URL later already has a secret to read.
      webhookSecret: newWebhookSecret(),
      ownerWallet: ctx.payer,
      ownerContractOn: ctx.payerContractOn,
      paymentId: ctx.paymentId,
      createdAt,
    });
    // Feedback is filed by name, so registering the name is what links every earlier item to the owner.
    const [linked] = await tx
      .select({ n: count() })
      .from(feedback)
      .where(eq(feedback.namespace, input.namespace));
    const body = {
      namespace: input.namespace,
      ownerWallet: ctx.payer,
      existingFeedbackLinked: Number(linked?.n ?? 0),
      createdAt: createdAt.toISOString(),
    };
    await fulfilPayment(tx, ctx, input.namespace, body);
    return { resultId: input.namespace, body };
  });
}

/**
 * The paid write of a registration (POST /register): the name must be free and the webhook URL
 * allowed before anyone is asked to pay; two payers racing for one name meet at the claim's lock.
 */
export async function registerNamespaceWrite(
  input: RegisterNamespaceInput,
): Promise<PaidWrite<Awaited<ReturnType<typeof registerNamespace>>["body"]>> {
  await assertNamespaceAvailable(await getDb(), input.namespace);
  assertWebhookUrlAllowed(input.webhookUrl, "webhookUrl");
  return {
    // The second of two payers racing for one name is refused at claim time, before it is charged.
    lockKey: `namespace:${input.namespace}`,
    lockedError: () => namespaceTaken(input.namespace),
    input,
    commit: (ctx) => registerNamespace(input, ctx),
  };
}
