import "server-only";
import { eq } from "drizzle-orm";
import type { Who } from "@/lib/auth/identity";
import { type DbOrTx, getDb } from "@/lib/db/client";
import { namespaces } from "@/lib/db/schema";
import { requireAccess, walletOf } from "@/lib/domain/namespace/require-access";
import { validationError } from "@/lib/http/errors";
import type { ProposeTransferInput } from "@/lib/schemas/members";
import { enqueueWebhook } from "@/lib/webhooks/outbox";
import { transferExpiry } from "./pending-transfer";

/** POST /transfer: the owner proposes a new owner, replacing any proposal still pending. */
export async function proposeTransfer(who: Who, input: ProposeTransferInput, db?: DbOrTx) {
  db ??= await getDb();
  return db.transaction(async (tx) => {
    const ns = await requireAccess(who, input.namespace, "ownership", tx);
    if (ns.ownerWallet.toLowerCase() === input.to.toLowerCase()) {
      throw validationError([{ field: "to", message: "is the namespace's owner already" }]);
    }
    const proposedAt = new Date();
    await tx
      .update(namespaces)
      .set({ transferTo: input.to, transferProposedAt: proposedAt })
      .where(eq(namespaces.name, input.namespace));
    const expiresAt = transferExpiry(proposedAt).toISOString();
    await enqueueWebhook(tx, input.namespace, "namespace.transfer_proposed", {
      namespace: input.namespace,
      to: input.to,
      by: walletOf(who),
      proposedAt: proposedAt.toISOString(),
      expiresAt,
    });
    return { namespace: input.namespace, to: input.to, proposedAt: proposedAt.toISOString(), expiresAt };
  });
}
