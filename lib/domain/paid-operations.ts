import "server-only";
import { and, eq, exists, inArray, isNotNull, sql } from "drizzle-orm";
import { type Db, getDb } from "@/lib/db/client";
import { feedback, payments } from "@/lib/db/schema";
import { type PaidOperations, recoverPayments } from "@/lib/payment/recover";
import { followUpSchema } from "@/lib/schemas/follow-up";
import { registerNamespaceSchema } from "@/lib/schemas/namespace";
import type { PaidOperationName } from "@/lib/schemas/operations/catalog";
import { commitFollowUp } from "./feedback/follow-up";
import { submissionSchema, submitFeedback } from "./feedback/submit-feedback";
import { registerNamespace } from "./namespace/register-namespace";
import {
  commitRewardedResolve,
  releaseHeldItem,
  rewardedResolveInputSchema,
} from "./rewards/resolve-with-reward";

/**
 * Each paid operation of the catalogue, by the name its ledger rows carry: its write rebuilt from the
 * stored input (parsed again, as a request's body would be), and what it gives back when its payment fails.
 */
export const PAID_WRITES = {
  register: { commit: (input, ctx) => registerNamespace(registerNamespaceSchema.parse(input), ctx) },
  resolve: {
    commit: (input, ctx) => commitRewardedResolve(rewardedResolveInputSchema.parse(input), ctx),
    release: releaseHeldItem,
  },
  feedback: {
    commit: (input, ctx) => submitFeedback(submissionSchema.parse(input), ctx),
  },
  "follow-up": { commit: (input, ctx) => commitFollowUp(followUpSchema.parse(input), ctx) },
} satisfies Record<PaidOperationName, PaidOperations[string]>;

/**
 * Gives back every item still held by a payment that failed or was refunded. Failing and releasing are
 * one transaction now; this repairs what older versions left behind, and anything else that slips.
 */
async function releaseStaleHolds(db: Db): Promise<number> {
  // Few items are held at any time: look each one's payment up by key, never scan the ledger.
  const released = await db
    .update(feedback)
    .set({ resolvingPaymentId: null })
    .where(
      and(
        isNotNull(feedback.resolvingPaymentId),
        exists(
          db
            .select({ one: sql`1` })
            .from(payments)
            .where(
              and(
                eq(payments.id, feedback.resolvingPaymentId),
                inArray(payments.status, ["failed", "refunded"]),
              ),
            ),
        ),
      ),
    )
    .returning({ id: feedback.id });
  return released.length;
}

/** Finishes every paid write a crash or a lost answer left half-done. */
export async function recoverPaidWrites(signal?: AbortSignal) {
  const db = await getDb();
  const report = await recoverPayments(PAID_WRITES, { db, signal });
  return { ...report, released: await releaseStaleHolds(db) };
}
