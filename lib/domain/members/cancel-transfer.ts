import "server-only";
import { and, eq, isNotNull } from "drizzle-orm";
import type { Who } from "@/lib/auth/identity";
import { type DbOrTx, getDb } from "@/lib/db/client";
import { namespaces } from "@/lib/db/schema";
import { requireAccess } from "@/lib/domain/namespace/require-access";

/** DELETE /transfer: the owner withdraws the transfer it proposed; `cancelled` is false when none was pending. */
export async function cancelTransfer(who: Who, namespace: string, db?: DbOrTx) {
  db ??= await getDb();
  await requireAccess(who, namespace, "ownership", db);
  const cleared = await db
    .update(namespaces)
    .set({ transferTo: null, transferProposedAt: null })
    .where(and(eq(namespaces.name, namespace), isNotNull(namespaces.transferTo)))
    .returning({ name: namespaces.name });
  return { namespace, cancelled: cleared.length > 0 };
}
