import { randomBytes } from "node:crypto";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as pgliteDrizzle } from "drizzle-orm/pglite";
import { drizzle as postgresDrizzle } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import { feedback, namespaces, payments, payouts } from "../../lib/db/schema";
import type { AppInstance } from "./apps";
import type { Ledger } from "./reconcile";

type Db = PgDatabase<PgQueryResultHKT>;

async function read(db: Db): Promise<Ledger> {
  return {
    payments: await db.select().from(payments),
    items: await db
      .select({
        id: feedback.id,
        paymentId: feedback.paymentId,
        resolved: feedback.resolved,
        resolvingPaymentId: feedback.resolvingPaymentId,
      })
      .from(feedback),
    namespaces: await db.select({ name: namespaces.name, paymentId: namespaces.paymentId }).from(namespaces),
    payouts: await db.select().from(payouts),
  };
}

const open = (l: Ledger) =>
  l.payments.filter((r) => r.status === "claimed" || r.status === "settled").length +
  l.payouts.filter((p) => p.status === "pending" || p.status === "refunding").length;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The run's database: a fresh PostgreSQL database of its own on the given server, or an embedded
 * database on disk (so it survives kill -9). `settled` waits until reconciliation left nothing open,
 * or the time is up, and returns the ledger as it then is.
 */
export async function openLedger(serverUrl: string | undefined, dataDir: string) {
  if (serverUrl) {
    const name = `chaos_${randomBytes(4).toString("hex")}`;
    const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
    await admin.unsafe(`create database ${name}`);
    const url = new URL(serverUrl);
    url.pathname = `/${name}`;
    const client = postgres(url.toString(), { max: 2, onnotice: () => {} });
    const db = postgresDrizzle({ client }) as unknown as Db;
    return {
      appEnv: { databaseUrl: url.toString() },
      dataDir,
      async settled(_apps: AppInstance[], timeoutMs: number): Promise<Ledger> {
        const deadline = Date.now() + timeoutMs;
        for (;;) {
          const ledger = await read(db);
          if (open(ledger) === 0 || Date.now() > deadline) return ledger;
          await sleep(2_000);
        }
      },
      async close() {
        await client.end();
        await admin.unsafe(`drop database if exists ${name} with (force)`);
        await admin.end();
      },
    };
  }
  // PGlite is one process: the app is stopped while the ledger is read, then started again if needed.
  return {
    appEnv: { pgliteDir: dataDir, databaseUrl: undefined },
    dataDir,
    async settled(apps: AppInstance[], timeoutMs: number): Promise<Ledger> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        await sleep(5_000);
        for (const app of apps) await app.stop();
        const client = await PGlite.create(dataDir, { extensions: { pg_trgm } });
        const ledger = await read(pgliteDrizzle({ client }) as unknown as Db);
        await client.close();
        if (open(ledger) === 0 || Date.now() > deadline) return ledger;
        for (const app of apps) await app.start();
      }
    },
    async close() {},
  };
}
