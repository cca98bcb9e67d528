import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { drizzle } from "drizzle-orm/pglite";
import { migrate } from "drizzle-orm/pglite/migrator";
import { freePort } from "../../scripts/devnet/anvil";
import { devnetAppEnv } from "../../scripts/devnet/app-env";
import { devnet } from "./wallet";

/** Items in each seeded namespace. */
export const ITEMS = 10_000;
/** accounts[6] owns the seeded namespaces; accounts[7] submitted every seeded item. */
export const OWNER = devnet.accounts[6]!;
export const AGENT = devnet.accounts[7]!;

/**
 * Writes `namespace` holding ITEMS items. Item i is i minutes old; every fifth is resolved. With
 * `groups`, in each hundred items the 6th heads a group of duplicates holding the 2nd, 3rd and 4th
 * as suggestions (newer than their head, as grouping files them).
 */
async function seedNamespace(client: PGlite, namespace: string, groups: boolean) {
  await client.query(
    "insert into namespaces (name, owner_wallet, payment_id, created_at) values ($1, $2, $3, now())",
    [namespace, OWNER.address, `seed-ns-${namespace}`],
  );
  await client.query(
    `insert into feedback (id, namespace, type, title, description, severity, targets, resolved, status,
       submitter_wallet, payment_id, created_at, grouped_at, group_id, group_kind, report_count)
     select $3 || i, $1, (array['bug','feature','feedback'])[1 + i % 3],
       'Report ' || i || ': the checkout button stops responding on step ' || (i % 97),
       repeat('After a few clicks the page stops reacting and nothing is sent. ', 4) || 'Case ' || i,
       (array['low','medium','high','critical'])[1 + i % 4], '[]'::jsonb, i % 5 = 0,
       case when i % 5 = 0 then 'resolved' else 'open' end,
       $2, $3 || 'pay-' || i, now() - make_interval(mins => i), now(),
       case when $4 and i % 100 between 2 and 4 then $3 || (i - i % 100 + 6) end,
       case when $4 and i % 100 between 2 and 4 then 'suggested' end,
       case when $4 and i % 100 = 6 then 4 else 1 end
     from generate_series(1, ${ITEMS}) as i`,
    [namespace, AGENT.address, `fb_${namespace.replace(/-/g, "_")}_`, groups],
  );
}

export type SeededApp = { url: string; stop: () => Promise<void> };

/**
 * A `next start` of the production build on a fresh embedded database seeded with `namespaces`,
 * on the suite's devnet. It settles payments with the devnet's last facilitator key, which the suite's
 * own instances (leasing the first ones in their database) never use, so their nonces never collide.
 */
export async function startSeededApp(namespaces: { name: string; groups?: boolean }[]): Promise<SeededApp> {
  const dataDir = await mkdtemp(path.join(tmpdir(), "seeded-app-"));
  const client = await PGlite.create(dataDir, { extensions: { pg_trgm } });
  await migrate(drizzle({ client }), { migrationsFolder: path.resolve("drizzle") });
  for (const ns of namespaces) await seedNamespace(client, ns.name, ns.groups ?? false);
  await client.query("analyze");
  await client.close();

  const port = await freePort();
  const url = `http://localhost:${port}`;
  const env = devnetAppEnv({ ...devnet, appUrl: url }, { pgliteDir: dataDir });
  const app: ChildProcess = spawn(
    process.execPath,
    [path.resolve("node_modules/next/dist/bin/next"), "start", "--port", String(port)],
    {
      stdio: "ignore",
      env: {
        ...process.env,
        NODE_ENV: "production",
        ...env,
        X402_FACILITATOR_PRIVATE_KEY: env.X402_FACILITATOR_PRIVATE_KEY!.split(",").at(-1)!,
        // The seeded embedded database, even when the suite itself runs on PostgreSQL.
        DATABASE_URL: "",
      },
    },
  );
  const stop = async () => {
    const exited = new Promise((resolve) => app.once("exit", resolve));
    app.kill("SIGTERM");
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
    await rm(dataDir, { recursive: true, force: true });
  };
  for (let i = 0; i < 240; i++) {
    try {
      if ((await fetch(`${url}/api/auth/session`)).ok) return { url, stop };
    } catch {}
    await new Promise((r) => setTimeout(r, 250));
  }
  await stop();
  throw new Error("the seeded app did not start");
}
