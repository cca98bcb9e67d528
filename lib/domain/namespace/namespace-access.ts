import "server-only";
import type { Who } from "@/lib/auth/identity";
import type { Role } from "@/lib/auth/roles";
import { type DbOrTx, getDb } from "@/lib/db/client";
import { AppError } from "@/lib/http/errors";
import { roleIn } from "./require-access";

/** What the signed-in wallet may do with a namespace name, as the dashboard shows it. */
export type NamespaceAccess =
  | { namespace: string; access: "owner" | "member"; role: Role }
  | { namespace: string; access: "not-registered" | "not-yours" };

/**
 * Whether `who` owns `name` or is a member of it (with its role), or it is free to register, or someone else
 * holds it. The dashboard asks before it reads an inbox, so an unknown or foreign name is a page that says so,
 * not a failed read. Whether a name is registered is public already (registering a taken one is refused).
 */
export async function namespaceAccess(who: Who, name: string, db?: DbOrTx): Promise<NamespaceAccess> {
  db ??= await getDb();
  try {
    const { role } = await roleIn(who, name, db);
    if (role === null) return { namespace: name, access: "not-yours" };
    return { namespace: name, access: role === "owner" ? "owner" : "member", role };
  } catch (error) {
    if (error instanceof AppError && error.code === "namespace-not-found") {
      return { namespace: name, access: "not-registered" };
    }
    throw error;
  }
}
