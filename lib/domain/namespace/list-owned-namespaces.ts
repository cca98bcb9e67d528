import "server-only";
import { asc, eq, sql } from "drizzle-orm";
import { type DbOrTx, getDb } from "@/lib/db/client";
import { feedback, namespaces } from "@/lib/db/schema";

/** The namespaces a wallet owns, by name, each with how many items it holds and how many are open. */
export async function listOwnedNamespaces(wallet: string, db?: DbOrTx) {
  db ??= await getDb();
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
    .where(sql`lower(${namespaces.ownerWallet}) = ${wallet.toLowerCase()}`)
    .groupBy(namespaces.name)
    .orderBy(asc(namespaces.name));
  return {
    owner: wallet,
    namespaces: rows.map((r) => ({ ...r, createdAt: r.createdAt.toISOString() })),
  };
}
