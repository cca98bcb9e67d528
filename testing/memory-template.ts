import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { drizzle } from "drizzle-orm/pglite";
import { migrate } from "drizzle-orm/pglite/migrator";

/**
 * Each test file opens embedded databases of its own; creating one runs initdb in WebAssembly (1.5 to 10 s
 * on this machine, as loaded) where loading a migrated one from memory takes 0.4 s. A global setup makes
 * the migrated, empty database once, and each file's setup names it in FEEDBACK_MEMORY_TEMPLATE, which
 * lib/db/client.ts starts every in-memory database from. With DATABASE_URL set, none is made.
 */
export async function makeMemoryTemplate(): Promise<{ file?: string; remove: () => Promise<void> }> {
  if (process.env.DATABASE_URL) return { remove: async () => {} };
  const dir = await mkdtemp(path.join(tmpdir(), "feedback-template-"));
  const remove = () => rm(dir, { recursive: true, force: true });
  const client = await PGlite.create("memory://", { extensions: { pg_trgm } });
  try {
    await migrate(drizzle({ client }), { migrationsFolder: path.join(process.cwd(), "drizzle") });
    const file = path.join(dir, "embedded-template.tar");
    await writeFile(file, Buffer.from(await (await client.dumpDataDir("none")).arrayBuffer()));
    return { file, remove };
  } catch (error) {
    await remove();
    throw error;
  } finally {
    await client.close();
  }
}

declare module "vitest" {
  export interface ProvidedContext {
    /** The migrated embedded database each in-memory one starts from; "" on PostgreSQL. */
    memoryTemplate: string;
  }
}
