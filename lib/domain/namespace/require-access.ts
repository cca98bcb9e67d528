import "server-only";
import { and, eq, sql } from "drizzle-orm";
import { getAddress } from "viem";
import { isHolder, type Who, whoOf } from "@/lib/auth/identity";
import { leastRoleFor, may, type Permission, type Role } from "@/lib/auth/roles";
import type { DbOrTx } from "@/lib/db/client";
import { param, prepared } from "@/lib/db/prepared";
import { namespaceMembers, namespaces } from "@/lib/db/schema";
import { AppError } from "@/lib/http/errors";

// Every signed-in call on a namespace starts here: the namespace and the caller's membership in one read,
// built once per database handle. A removal or a transfer counts from the caller's very next call.
const namespaceStatement = prepared((db) =>
  db
    .select({ namespace: namespaces, memberRole: namespaceMembers.role })
    .from(namespaces)
    .leftJoin(
      namespaceMembers,
      and(
        eq(namespaceMembers.namespace, namespaces.name),
        eq(namespaceMembers.wallet, sql`${param("wallet")}`),
      ),
    )
    .where(eq(namespaces.name, param("name")))
    .limit(1)
    .prepare("namespace_with_member"),
);

/** A sign-in's address as members are stored: checksummed. */
export const walletOf = (who: Who) => getAddress(whoOf(who).address.toLowerCase());

export const namespaceNotFound = (name: string) =>
  new AppError("namespace-not-found", `The namespace "${name}" is not registered.`, {
    errors: [{ field: "namespace", message: "is not registered" }],
  });

/** The namespace and the caller's role in it (the owner, a member's role), or null for anyone else. */
export async function roleIn(who: Who, name: string, db: DbOrTx) {
  const [found] = await namespaceStatement(db).execute({ name, wallet: walletOf(who) });
  if (!found) throw namespaceNotFound(name);
  const { namespace: row, memberRole } = found;
  const role: Role | null = isHolder(who, row.ownerWallet, row.ownerContractOn) ? "owner" : memberRole;
  return { row, role };
}

/**
 * The namespace row when `who` may do what `permission` names in it: 404 when unregistered; 403 `not-owner`
 * for a wallet that is neither its owner nor a member, 403 `role-forbidden` for a member whose role may not.
 */
export async function requireAccess(who: Who, name: string, permission: Permission, db: DbOrTx) {
  const { row, role } = await roleIn(who, name, db);
  if (role === null) {
    throw new AppError(
      "not-owner",
      `The signed-in wallet neither owns nor is a member of the namespace "${name}".`,
    );
  }
  if (!may(role, permission)) {
    const needed = leastRoleFor(permission);
    throw new AppError(
      "role-forbidden",
      `The signed-in wallet is ${role === "admin" ? "an" : "a"} ${role} of the namespace "${name}": this needs ${needed === "owner" ? "its owner" : `the ${needed} role or above`}.`,
    );
  }
  return { ...row, role };
}
