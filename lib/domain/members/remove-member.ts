import "server-only";
import { and, eq } from "drizzle-orm";
import type { Who } from "@/lib/auth/identity";
import { manages } from "@/lib/auth/roles";
import { type DbOrTx, getDb } from "@/lib/db/client";
import { namespaceMembers } from "@/lib/db/schema";
import { requireAccess, walletOf } from "@/lib/domain/namespace/require-access";
import { AppError, validationError } from "@/lib/http/errors";
import type { RemoveMemberInput } from "@/lib/schemas/members";
import { enqueueWebhook } from "@/lib/webhooks/outbox";

/**
 * DELETE /members: takes a member off the team, from its very next call. Viewers and triagers are an admin's
 * to remove, admins the owner's alone, and any member may leave; the owner cannot be removed.
 */
export async function removeMember(who: Who, input: RemoveMemberInput, db?: DbOrTx) {
  db ??= await getDb();
  return db.transaction(async (tx) => {
    const ns = await requireAccess(who, input.namespace, "read", tx);
    if (ns.ownerWallet.toLowerCase() === input.wallet.toLowerCase()) {
      throw validationError([
        { field: "wallet", message: "is the namespace's owner, who cannot be removed (transfer it instead)" },
      ]);
    }
    const by = walletOf(who);
    const where = and(
      eq(namespaceMembers.namespace, input.namespace),
      eq(namespaceMembers.wallet, input.wallet),
    );
    const [member] = await tx.select().from(namespaceMembers).where(where).for("update");
    if (!member) {
      throw new AppError("not-found", `The wallet ${input.wallet} is not a member of "${input.namespace}".`, {
        errors: [{ field: "wallet", message: "is not a member of the namespace" }],
      });
    }
    if (by !== member.wallet) await requireAccess(who, input.namespace, manages(member.role), tx);
    await tx.delete(namespaceMembers).where(where);
    await enqueueWebhook(tx, input.namespace, "member.removed", {
      namespace: input.namespace,
      wallet: member.wallet,
      role: member.role,
      by,
      at: new Date().toISOString(),
    });
    return { namespace: input.namespace, wallet: member.wallet, removed: true as const };
  });
}
