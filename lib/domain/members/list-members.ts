import "server-only";
import { asc, eq } from "drizzle-orm";
import type { Who } from "@/lib/auth/identity";
import { type DbOrTx, getDb } from "@/lib/db/client";
import { namespaceMembers } from "@/lib/db/schema";
import { requireAccess } from "@/lib/domain/namespace/require-access";
import { pendingTransferOf } from "./pending-transfer";

/** GET /members: the owner, each member with its role, and the transfer pending; to the owner and every member. */
export async function listMembers(who: Who, namespace: string, db?: DbOrTx) {
  db ??= await getDb();
  const ns = await requireAccess(who, namespace, "read", db);
  const rows = await db
    .select()
    .from(namespaceMembers)
    .where(eq(namespaceMembers.namespace, namespace))
    .orderBy(asc(namespaceMembers.addedAt), asc(namespaceMembers.wallet));
  return {
    namespace,
    owner: ns.ownerWallet,
    members: rows.map((m) => ({
      wallet: m.wallet,
      role: m.role,
      addedAt: m.addedAt.toISOString(),
      addedBy: m.addedBy,
    })),
    pendingTransfer: pendingTransferOf(ns),
  };
}
