/**
 * Seeds an embedded database with `count` feedback items and their ledger rows (fulfilled payments), in
 * SQL (generate_series), to time a move of a large database:
 * `node --conditions=react-server --import tsx testing/seed-embedded.ts <data dir> [count]`.
 */
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { openDb } from "../lib/db/client";

const [dataDir, countArg = "100000"] = process.argv.slice(2);
if (!dataDir) throw new Error("usage: seed-embedded.ts <data dir> [count]");
const count = Number(countArg);
const CHUNK = 10_000;

// Migrated as the app would, then filled on a client of its own (the handle's is not exposed).
await (await openDb({ dataDir })).close();
const db = await PGlite.create(dataDir, { extensions: { pg_trgm } });
const words = `array['checkout','login','safari','upload','invoice','search','export','webhook','refund',
  'dashboard','timeout','crash','button','page','slow','error','label','mobile','chrome','profile']`;
const word = (n: string) => `(${words})[1 + (${n}) % 20]`;
const started = performance.now();
await db.query(
  `insert into namespaces (name, owner_wallet, payment_id, created_at)
   values ('seeded', '0x00000000000000000000000000000000000000aa', 'pay_seed_namespace', now())
   on conflict do nothing`,
);
for (let from = 1; from <= count; from += CHUNK) {
  const to = Math.min(count, from + CHUNK - 1);
  await db.transaction(async (tx) => {
    await tx.query(
      `insert into payments (id, protocol, payment_key, operation, status, payer, amount, asset, network, pay_to,
         tx_ref, expires_at, request, request_hash, credential_hash, result_id, response, created_at, updated_at)
       select 'pay_seed_' || i, case when i % 2 = 0 then 'x402' else 'mpp' end, 'key_seed_' || md5(i::text),
         'feedback', 'fulfilled', '0x' || substr(md5('payer' || i % 500), 1, 40), (10000 + i % 7 * 5000)::text,
         '0x5fbdb2315678afecb367f032d93f642f64180aa3', 'eip155:31337', '0x70997970c51812dc3a010c7d01b50e0d17dc79c8',
         '0x' || md5(i::text) || md5((-i)::text), now() + interval '5 minutes',
         jsonb_build_object('namespace', 'seeded', 'type', 'bug', 'title', 'Seeded ' || i), md5('r' || i),
         md5('c' || i), 'fb_seed_' || i, jsonb_build_object('id', 'fb_seed_' || i, 'namespace', 'seeded'),
         now() - (i || ' seconds')::interval, now() - (i || ' seconds')::interval
       from generate_series(${from}, ${to}) i`,
    );
    await tx.query(
      `insert into feedback (id, namespace, type, title, description, severity, steps, targets, verified,
         submitter_wallet, status, labels, payment_id, created_at)
       select 'fb_seed_' || i, 'seeded', case when i % 3 = 0 then 'feature' else 'bug' end,
         initcap(${word("i")}) || ' ' || ${word("i / 20")} || ' fails on /' || ${word("i / 400")} || ' ' || i,
         'When I open the ' || ${word("i * 7")} || ' page and press ' || ${word("i * 11")} || ', the '
           || ${word("i * 13")} || ' shows an error instead of the ' || ${word("i * 17")} || '. Seen ' || i % 50
           || ' times today; the ' || ${word("i * 19")} || ' view was fine yesterday.',
         (array['low','medium','high','critical'])[1 + i % 4], jsonb_build_array('Open it', 'Press it'),
         '[]'::jsonb, i % 5 = 0, '0x' || substr(md5('payer' || i % 500), 1, 40),
         (array['open','acknowledged','in_progress','wont_fix'])[1 + i % 4],
         case when i % 10 = 0 then array['seeded'] else '{}'::text[] end,
         'pay_seed_' || i, now() - (i || ' seconds')::interval
       from generate_series(${from}, ${to}) i`,
    );
  });
  console.log(`${to} items, ${((performance.now() - started) / 1000).toFixed(1)} s`);
}
await db.close();
