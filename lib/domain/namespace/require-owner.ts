import "server-only";
import { eq } from "drizzle-orm";
import type { DbOrTx } from "@/lib/db/client";
import { namespaces } from "@/lib/db/schema";
import { AppError } from "@/lib/http/errors";

/** The namespace row when `wallet` owns it; 404 when unregistered, 403 when owned by someone else. */
export async function requireOwner(wallet: string, name: string, db: DbOrTx) {
  const [row] = await db.select().from(namespaces).where(eq(namespaces.name, name)).limit(1);
  if (!row) {
    throw new AppError("namespace-not-found", `The namespace "${name}" is not registered.`, {
      errors: [{ field: "namespace", message: "is not registered" }],
    });
  }
  if (row.ownerWallet.toLowerCase() !== wallet.toLowerCase()) {
    throw new AppError("not-owner", `The signed-in wallet does not own the namespace "${name}".`);
  }
  return row;
}
