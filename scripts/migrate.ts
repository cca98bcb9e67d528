/** `npm run db:migrate`: applies the migrations in drizzle/ to DATABASE_URL, or to the embedded database. */
import { openDb } from "../lib/db/client";

const url = process.env.DATABASE_URL;
const handle = await openDb({ url, dataDir: process.env.PGLITE_DIR ?? ".data/pglite" });
await handle.close();
console.log(`Migrations applied to ${url ? "PostgreSQL (DATABASE_URL)" : "the embedded database"}.`);
