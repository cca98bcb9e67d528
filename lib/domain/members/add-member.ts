import "server-only";
import { and, eq } from "drizzle-orm";
import type { Who } from "@/lib/auth/identity";
import { manages } from "@/lib/auth/roles";
import { type DbOrTx, getDb } from "@/lib/db/client";
import { namespaceMembers } from "@/lib/db/schema";
import { requireAccess, walletOf } from "@/lib/domain/namespace/require-access";
import { validationError } from "@/lib/http/errors";
import type { AddMemberInput } from "@/lib/schemas/members";
import { enqueueWebhook } from "@/lib/webhooks/outbox";

/**
 * POST /members: adds a wallet with a role, or changes a member's role (it stays listed once). Viewers and
 * triagers are an admin's to manage, admins the owner's alone; the owner is no member.
 */
export async function addMember(who: Who, input: AddMemberInput, db?: DbOrTx) {
  db ??= await getDb();
  return db.transaction(async (tx) => {
    const ns = await requireAccess(who, input.namespace, manages(input.role), tx);
    if (ns.ownerWallet.toLowerCase() === input.wallet.toLowerCase()) {
      throw validationError([
        { field: "wallet", message: "is the namespace's owner, who has every right already" },
      ]);
    }
    const [before] = await tx
      .select({ role: namespaceMembers.role })
      .from(namespaceMembers)
      .where(and(eq(namespaceMembers.namespace, input.namespace), eq(namespaceMembers.wallet, input.wallet)))
      .for("update");
    // Changing an admin's role is taking its admin rights: the owner's alone too.
    if (before) await requireAccess(who, input.namespace, manages(before.role), tx);
    const by = walletOf(who);
    const at = new Date();
    const [row] = await tx
      .insert(namespaceMembers)
      .values({
        namespace: input.namespace,
        wallet: input.wallet,
        role: input.role,
        addedAt: at,
        addedBy: by,
      })
      .onConflictDoUpdate({
        target: [namespaceMembers.namespace, namespaceMembers.wallet],
        set: { role: input.role, addedBy: by },
      })
      .returning();
    if (before?.role !== input.role) {
      await enqueueWebhook(tx, input.namespace, "member.added", {
        namespace: input.namespace,
        wallet: input.wallet,
        role: input.role,
        previousRole: before?.role ?? null,
        by,
        at: at.toISOString(),
      });
    }
    return {
      namespace: input.namespace,
      wallet: row!.wallet,
      role: row!.role,
      addedAt: row!.addedAt.toISOString(),
    };
  });
}
