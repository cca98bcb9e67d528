import "server-only";
import { eq } from "drizzle-orm";
import { isHolder, type Who } from "@/lib/auth/identity";
import type { DbOrTx } from "@/lib/db/client";
import { param, prepared } from "@/lib/db/prepared";
import { namespaces } from "@/lib/db/schema";
import { AppError } from "@/lib/http/errors";

// Every signed-in read of a namespace starts here: built once per database handle.
const namespaceStatement = prepared((db) =>
  db
    .select()
    .from(namespaces)
    .where(eq(namespaces.name, param("name")))
    .limit(1)
    .prepare("namespace_by_name"),
);

/** The namespace row when `who` owns it; 404 when unregistered, 403 when owned by someone else. */
export async function requireOwner(who: Who, name: string, db: DbOrTx) {
  const [row] = await namespaceStatement(db).execute({ name });
  if (!row) {
    throw new AppError("namespace-not-found", `The namespace "${name}" is not registered.`, {
      errors: [{ field: "namespace", message: "is not registered" }],
    });
  }
  if (!isHolder(who, row.ownerWallet, row.ownerContractOn)) {
    throw new AppError("not-owner", `The signed-in wallet does not own the namespace "${name}".`);
  }
  return row;
}
