import "server-only";
import { eq } from "drizzle-orm";
import { isHolder, type Who } from "@/lib/auth/identity";
import { type DbOrTx, getDb } from "@/lib/db/client";
import { namespaces } from "@/lib/db/schema";

/** What the signed-in wallet may do with a namespace name, as the dashboard shows it. */
export type NamespaceAccess = { namespace: string; access: "owner" | "not-registered" | "not-yours" };

/**
 * Whether `who` owns `name`, or it is free to register, or someone else holds it. The dashboard asks
 * before it reads an inbox, so an unknown or foreign name is a page that says so, not a failed read.
 * Whether a name is registered is public already (registering a taken one is refused).
 */
export async function namespaceAccess(who: Who, name: string, db?: DbOrTx): Promise<NamespaceAccess> {
  db ??= await getDb();
  const [row] = await db
    .select({ owner: namespaces.ownerWallet, ownerOn: namespaces.ownerContractOn })
    .from(namespaces)
    .where(eq(namespaces.name, name))
    .limit(1);
  if (!row) return { namespace: name, access: "not-registered" };
  return { namespace: name, access: isHolder(who, row.owner, row.ownerOn) ? "owner" : "not-yours" };
}
