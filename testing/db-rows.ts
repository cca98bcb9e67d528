import { randomBytes } from "node:crypto";
import type { DbOrTx } from "@/lib/db/client";
import { feedback, namespaces } from "@/lib/db/schema";

type ItemRow = typeof feedback.$inferInsert;
type NamespaceRow = typeof namespaces.$inferInsert;

/** A fresh id or name of this run only: a shared PostgreSQL may hold anything from other runs. */
export const ref = (prefix: string) => `${prefix}_${randomBytes(8).toString("hex")}`;

/**
 * Writes a feedback item straight to the table, as a paid submission would have, and returns its id.
 * Only the namespace is asked for; a test names just the fields its scene is about.
 */
export async function insertItem(db: DbOrTx, values: Partial<ItemRow> & Pick<ItemRow, "namespace">) {
  const id = values.id ?? ref("fb");
  await db.insert(feedback).values({
    id,
    type: "bug",
    title: `Item ${id}`,
    description: "Details of the item.",
    targets: [],
    paymentId: ref("pay"),
    createdAt: new Date(),
    ...values,
  });
  return id;
}

/** Writes a registered namespace straight to the table, with no registration payment behind it. */
export async function insertNamespace(
  db: DbOrTx,
  values: Partial<NamespaceRow> & Pick<NamespaceRow, "name" | "ownerWallet">,
) {
  await db.insert(namespaces).values({ paymentId: ref("pay"), createdAt: new Date(), ...values });
}
