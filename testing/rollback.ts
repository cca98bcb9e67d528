import { TransactionRollbackError } from "drizzle-orm";
import { afterAll, beforeAll, it } from "vitest";
import { type DbOrTx, openDb } from "@/lib/db/client";

type Handle = Awaited<ReturnType<typeof openDb>>;
let handle: Promise<Handle> | undefined;

/** One migrated database per test file: an embedded one in memory, or DATABASE_URL's when set. */
function database(): Promise<Handle> {
  handle ??= openDb({ url: process.env.DATABASE_URL });
  return handle;
}

// Opening and migrating the database is the file's setup, under the hook timeout, not its first test's cost.
beforeAll(async () => {
  await database();
});

afterAll(async () => {
  await (await handle)?.close();
});

/**
 * Runs `fn` in a transaction that always rolls back: a domain test sees only the rows it wrote,
 * leaves nothing behind (on a shared PostgreSQL too), and needs no payment to set its scene.
 */
async function inRollback(fn: (db: DbOrTx) => Promise<void>): Promise<void> {
  const { db } = await database();
  try {
    await db.transaction(async (tx) => {
      await fn(tx);
      tx.rollback();
    });
  } catch (error) {
    if (!(error instanceof TransactionRollbackError)) throw error;
  }
}

/** A test whose writes are rolled back when it ends (see inRollback); the project's timeout unless given. */
export function rolledBack(name: string, fn: (db: DbOrTx) => Promise<void>, timeout?: number) {
  it(name, () => inRollback(fn), timeout);
}
