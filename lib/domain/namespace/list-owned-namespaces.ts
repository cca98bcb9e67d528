import "server-only";
import { and, asc, eq, isNotNull, isNull, or, sql } from "drizzle-orm";
import { type Who, whoOf } from "@/lib/auth/identity";
import type { Role } from "@/lib/auth/roles";
import { type DbOrTx, getDb } from "@/lib/db/client";
import { feedback, namespaceMembers, namespaces } from "@/lib/db/schema";
import { walletOf } from "./require-access";

/**
 * The namespaces a wallet owns or is a member of, by name, each with its role there, how many items it holds
 * and how many are open.
 */
export async function listOwnedNamespaces(who: Who, db?: DbOrTx) {
  db ??= await getDb();
  const { address: wallet, contractOn } = whoOf(who);
  const owns = and(
    sql`lower(${namespaces.ownerWallet}) = ${wallet.toLowerCase()}`,
    contractOn === null
      ? undefined
      : or(isNull(namespaces.ownerContractOn), eq(namespaces.ownerContractOn, contractOn)),
  );
  const rows = await db
    .select({
      namespace: namespaces.name,
      description: namespaces.description,
      createdAt: namespaces.createdAt,
      role: sql<Role>`case when ${owns} then 'owner' else min(${namespaceMembers.role}) end`,
      total: sql<number>`(count(${feedback.id}))::int`,
      unresolved: sql<number>`(count(${feedback.id}) filter (where ${feedback.resolved} = false))::int`,
    })
    .from(namespaces)
    .leftJoin(
      namespaceMembers,
      and(eq(namespaceMembers.namespace, namespaces.name), eq(namespaceMembers.wallet, walletOf(who))),
    )
    .leftJoin(feedback, eq(feedback.namespace, namespaces.name))
    .where(or(owns, isNotNull(namespaceMembers.wallet)))
    .groupBy(namespaces.name)
    .orderBy(asc(namespaces.name));
  return {
    owner: wallet,
    namespaces: rows.map((r) => ({ ...r, createdAt: r.createdAt.toISOString() })),
  };
}
