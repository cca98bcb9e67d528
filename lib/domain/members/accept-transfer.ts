import "server-only";
import { and, eq, gt, sql } from "drizzle-orm";
import { getAddress } from "viem";
import { type Who, whoOf } from "@/lib/auth/identity";
import { type DbOrTx, getDb } from "@/lib/db/client";
import { namespaceMembers, namespaces } from "@/lib/db/schema";
import { namespaceNotFound, walletOf } from "@/lib/domain/namespace/require-access";
import { AppError } from "@/lib/http/errors";
import { TRANSFER_DAYS } from "@/lib/schemas/members";
import { enqueueWebhook } from "@/lib/webhooks/outbox";

const notProposed = (namespace: string) =>
  new AppError(
    "transfer-not-pending",
    `No transfer of "${namespace}" to the signed-in wallet is pending: it was never proposed to it, was cancelled or replaced, or lapsed after ${TRANSFER_DAYS} days.`,
  );

/**
 * POST /transfer/accept, signed in as the wallet proposed: it owns the namespace from now on, every check
 * included, and the previous owner stays on as an admin until the new owner removes it. One conditional
 * update, so two accepts (or an accept racing a new proposal) change the owner once.
 */
export async function acceptTransfer(who: Who, namespace: string, db?: DbOrTx) {
  db ??= await getDb();
  const wallet = walletOf(who);
  return db.transaction(async (tx) => {
    const [before] = await tx
      .select({ owner: namespaces.ownerWallet })
      .from(namespaces)
      .where(eq(namespaces.name, namespace))
      .for("update");
    if (!before) throw namespaceNotFound(namespace);
    const [moved] = await tx
      .update(namespaces)
      .set({
        ownerWallet: wallet,
        ownerContractOn: whoOf(who).contractOn,
        transferTo: null,
        transferProposedAt: null,
      })
      .where(
        and(
          eq(namespaces.name, namespace),
          eq(namespaces.transferTo, wallet),
          gt(namespaces.transferProposedAt, sql`now() - make_interval(days => ${TRANSFER_DAYS})`),
        ),
      )
      .returning({ ownerWallet: namespaces.ownerWallet });
    if (!moved) throw notProposed(namespace);
    const at = new Date();
    // The new owner is no member of its own namespace; the previous owner stays, as an admin.
    await tx
      .delete(namespaceMembers)
      .where(and(eq(namespaceMembers.namespace, namespace), eq(namespaceMembers.wallet, wallet)));
    await tx
      .insert(namespaceMembers)
      .values({ namespace, wallet: getAddress(before.owner), role: "admin", addedAt: at, addedBy: wallet })
      .onConflictDoUpdate({
        target: [namespaceMembers.namespace, namespaceMembers.wallet],
        set: { role: "admin", addedBy: wallet },
      });
    await enqueueWebhook(tx, namespace, "namespace.transferred", {
      namespace,
      from: getAddress(before.owner),
      to: wallet,
      at: at.toISOString(),
    });
    return { namespace, ownerWallet: moved.ownerWallet };
  });
}
