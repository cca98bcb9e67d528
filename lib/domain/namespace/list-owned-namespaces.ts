import "server-only";
import { and, asc, eq, isNull, or, sql } from "drizzle-orm";
import { type Who, whoOf } from "@/lib/auth/identity";
import { type DbOrTx, getDb } from "@/lib/db/client";
import { feedback, namespaces } from "@/lib/db/schema";

/** The namespaces a wallet owns, by name, each with how many items it holds and how many are open. */
export async function listOwnedNamespaces(who: Who, db?: DbOrTx) {
  db ??= await getDb();
  const { address: wallet, contractOn } = whoOf(who);
  const rows = await db
    .select({
      namespace: namespaces.name,
      description: namespaces.description,
      createdAt: namespaces.createdAt,
      total: sql<number>`(count(${feedback.id}))::int`,
      unresolved: sql<number>`(count(${feedback.id}) filter (where ${feedback.resolved} = false))::int`,
    })
    .from(namespaces)
    .leftJoin(feedback, eq(feedback.namespace, namespaces.name))
    .where(
      and(
        sql`lower(${namespaces.ownerWallet}) = ${wallet.toLowerCase()}`,
        contractOn === null
          ? undefined
          : or(isNull(namespaces.ownerContractOn), eq(namespaces.ownerContractOn, contractOn)),
      ),
    )
    .groupBy(namespaces.name)
    .orderBy(asc(namespaces.name));
  return {
    owner: wallet,
    namespaces: rows.map((r) => ({ ...r, createdAt: r.createdAt.toISOString() })),
  };
}
