import { rmSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { payments } from "@/lib/db/schema";
import { createMppFetch } from "@/scripts/clients/mpp-payer";
import { devnetX402Payer } from "@/scripts/clients/x402-payer";
import { APP, postJson, uniqueName } from "@/testing/app-fetch";
import { runScript } from "@/testing/run-script";
import { serveInProcess } from "@/testing/serve-in-process";
import { currentService, type Service, serviceOn } from "@/testing/service-on";
import { workerDevnet } from "@/testing/worker-devnet";
import { openEmbedded } from "./embedded";

// `npm run db:backup` while paid submissions run: the service that holds the embedded database takes
// it (POST /ops/backup), and what `npm run db:restore` loads from it is a ledger that adds up.
const devnet = workerDevnet();
const key = (i: number) => devnet.accounts[i]!.privateKey as `0x${string}`;
const TOKEN = "backup-test-operator-token-0123456789abcdef";
const namespace = uniqueName("backup");
const feedbackUrl = `${APP}/api/namespace/feedback`;
const payers = [
  ...[2, 4].map((i) => devnetX402Payer(devnet, i, currentService).fetch),
  ...[5, 6].map((i) => createMppFetch(devnet.tempo, key(i), currentService).fetch),
];

let service: Service;
let scratch: string;
let bridge: Awaited<ReturnType<typeof serveInProcess>>;
let snapshotTaken = false;
const live = () => path.join(scratch, "live");

beforeAll(async () => {
  scratch = await mkdtemp(path.join(tmpdir(), "backup-test-"));
  service = await serviceOn({ pgliteDir: live() }, { OPS_TOKEN: TOKEN });
  // The service answers /ops/backup once it has copied the directory: the snapshot is taken then.
  bridge = await serveInProcess(async (input, init) => {
    const res = await currentService(input, init);
    if (String(input).endsWith("/ops/backup") && res.ok) snapshotTaken = true;
    return res;
  });
  const owner = devnetX402Payer(devnet, 7, currentService);
  expect((await owner.fetch(`${APP}/api/namespace/register`, postJson({ namespace }))).status).toBe(200);
});

afterAll(async () => {
  await bridge?.close();
  await service?.close();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

const backupRoute = (authorization?: string) =>
  currentService(`${APP}/ops/backup`, { method: "POST", headers: authorization ? { authorization } : {} });

describe("backups of the embedded database", () => {
  it("are served to the operator token only: 401 problem+json to any other", async () => {
    for (const authorization of [undefined, "Bearer wrong-token-0123456789abcdef0123456789", TOKEN]) {
      const refused = await backupRoute(authorization);
      expect(refused.status).toBe(401);
      expect(refused.headers.get("content-type")).toBe("application/problem+json");
      expect(refused.headers.get("www-authenticate")).toBe('Bearer realm="ops"');
    }
    const res = await backupRoute(`Bearer ${TOKEN}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/gzip");
    expect(res.headers.get("content-disposition")).toMatch(/^attachment; filename="pglite-.*\.tar\.gz"/);
    expect([...new Uint8Array(await res.arrayBuffer()).slice(0, 2)]).toEqual([0x1f, 0x8b]);
  });

  it("are taken under load by the running service, and restore to a ledger that adds up", async () => {
    const stored: string[] = [];
    // Paid submissions run until the service has taken its copy, then stop: the rest needs no load.
    const submitting = payers.map(async (pay, n) => {
      for (let i = 0; !snapshotTaken; i++) {
        const body = { namespace, type: "bug", title: `Under load ${n}-${i}`, description: "Backed up?" };
        const res = await pay(feedbackUrl, postJson(body));
        expect(res.status, await res.clone().text()).toBe(200);
        stored.push((await res.json()).id);
        // Paced: a steady stream of writes, not as many as the cores can take while the command starts.
        await new Promise((resolve) => setTimeout(resolve, 150));
      }
    });
    await expect.poll(() => stored.length, { timeout: 30_000 }).toBeGreaterThanOrEqual(4);
    const storedBefore = stored.slice();
    const file = path.join(scratch, "backups", "under-load.tar.gz");
    const env = { PGLITE_DIR: live(), DATABASE_URL: undefined };
    const taken = await runScript("scripts/db/backup.ts", [file, "--from", bridge.origin], {
      ...env,
      OPS_TOKEN: TOKEN,
    });
    await Promise.all(submitting);
    const storedMeanwhile = stored.length - storedBefore.length;
    expect(taken.code, taken.stdout + taken.stderr).toBe(0);
    expect(taken.stdout).toContain(`Taken by the service at ${bridge.origin}`);
    expect(storedMeanwhile).toBeGreaterThan(0);

    const restoredDir = path.join(scratch, "restored");
    const restored = await runScript("scripts/db/restore.ts", [file], { ...env, PGLITE_DIR: restoredDir });
    expect(restored.code, restored.stdout + restored.stderr).toBe(0);
    const db = await openEmbedded(restoredDir);
    try {
      const rows = async (text: string) => (await db.query<Record<string, string>>(text)).rows;
      // Every stored item has its ledger row, fulfilled with it; every fulfilled feedback payment, its item.
      const items = await rows(
        `select f.id, p.status, p.result_id from feedback f left join payments p on p.id = f.payment_id`,
      );
      expect(items.filter((r) => r.status !== "fulfilled" || r.result_id !== r.id)).toEqual([]);
      const [fulfilled] = await rows(
        `select count(*)::int as n from payments where operation = 'feedback' and status = 'fulfilled'`,
      );
      expect(fulfilled!.n).toBe(items.length);
      const ids = items.map((r) => r.id);
      expect(ids).toEqual(expect.arrayContaining(storedBefore));
      expect(stored).toEqual(expect.arrayContaining(ids));
      // A finished payment reads as it does in the live ledger; one in flight then has finished since.
      const copied = await rows(`select id, status, amount, payer, tx_ref, result_id from payments`);
      const now = await (await service.client.getDb())
        .select()
        .from(payments)
        .where(
          inArray(
            payments.id,
            copied.map((r) => r.id!),
          ),
        );
      for (const row of copied) {
        const later = now.find((p) => p.id === row.id)!;
        expect(later.status).toBe("fulfilled");
        if (row.status !== "fulfilled") continue;
        expect({ ...row }).toEqual({
          id: later.id,
          status: later.status,
          amount: later.amount,
          payer: later.payer,
          tx_ref: later.txRef,
          result_id: later.resultId,
        });
      }
    } finally {
      await db.close();
    }

    const again = await runScript("scripts/db/restore.ts", [file], { ...env, PGLITE_DIR: restoredDir });
    expect([again.code, again.stderr]).toEqual([1, expect.stringMatching(/is not empty/)]);
    const intoLive = await runScript("scripts/db/restore.ts", [file, "--replace"], env);
    expect([intoLive.code, intoLive.stderr]).toEqual([1, expect.stringMatching(/is open in process/)]);
    const noToken = await runScript("scripts/db/backup.ts", [file], { ...env, OPS_TOKEN: undefined });
    expect([noToken.code, noToken.stderr]).toEqual([1, expect.stringMatching(/Set OPS_TOKEN/)]);
  });
});
