import { rmSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { asc, count, inArray } from "drizzle-orm";
import type { Hash } from "viem";
import { readContract } from "viem/actions";
import { Abis } from "viem/tempo";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { feedback, feedbackEvents, namespaces, payments, payouts, webhookDeliveries } from "@/lib/db/schema";
import { createMppFetch } from "@/scripts/clients/mpp-payer";
import { createSignInFetch } from "@/scripts/clients/siwx-fetch";
import { devnetX402Payer } from "@/scripts/clients/x402-payer";
import { tempoClient } from "@/scripts/devnet/tempo";
import { APP, postJson, uniqueName } from "@/testing/app-fetch";
import { chainReader } from "@/testing/chain";
import { freshPostgres, postgresMissing } from "@/testing/fresh-postgres";
import { runScript } from "@/testing/run-script";
import { currentService, type Service, serviceOn } from "@/testing/service-on";
import { workerDevnet } from "@/testing/worker-devnet";

// A service's life on the embedded database, moved by `npm run db:move-to-postgres` into a fresh
// PostgreSQL database, then served from there: the same answers, the same ledger, nothing charged twice.
const devnet = workerDevnet();
const evm = chainReader(devnet.x402.rpcUrl, devnet.x402.asset as `0x${string}`);
const tempo = tempoClient(devnet.tempo);
const usdcE = (who: string) =>
  readContract(tempo, {
    address: devnet.tempo.currency,
    abi: Abis.tip20,
    functionName: "balanceOf",
    args: [who as Hash],
  });
const key = (i: number) => devnet.accounts[i]!.privateKey as `0x${string}`;
const owner = {
  pay: devnetX402Payer(devnet, 7, currentService),
  read: createSignInFetch(key(7), currentService),
};
const agent = {
  pay: devnetX402Payer(devnet, 3, currentService),
  mpp: createMppFetch(devnet.tempo, key(3), currentService),
  read: createSignInFetch(key(3), currentService),
};
const TOKEN = "move-test-operator-token-0123456789abcdef";
const namespace = uniqueName("moving");
const feedbackUrl = `${APP}/api/namespace/feedback`;
const item = (title: string) => ({
  namespace,
  type: "bug",
  title,
  description: 'Tabs\tand "quotes", a back\\slash and a new\nline survive the move.',
  steps: ["Open \\\\server\\share", "Press \u00e9t\u00e9 \u2603"],
});

const skip = await postgresMissing();
let service: Service;
let target: Awaited<ReturnType<typeof freshPostgres>>;
let dataDir: string;
const kept: { x402?: { body: object; signature: string; answer: unknown }; mpp?: typeof kept.x402 } = {};
const ids: string[] = [];
let before: { views: Awaited<ReturnType<typeof views>>; ledger: Awaited<ReturnType<typeof ledger>> };

async function ok(res: Response | Promise<Response>) {
  const answer = await res;
  expect(answer.status, await answer.clone().text()).toBe(200);
  return answer.json();
}

/** What the owner and the submitter read: the inbox, the status page, one item in full, the figures. */
async function views() {
  const today = new Date().toISOString().slice(0, 10);
  return {
    list: await ok(owner.read.fetch(`${APP}/api/namespace/list?namespace=${namespace}`)),
    status: await ok(agent.read.fetch(`${APP}/api/namespace/status?namespace=${namespace}`)),
    record: await ok(owner.read.fetch(`${APP}/api/namespace/feedback?id=${ids[2]}`)),
    insights: await ok(
      owner.read.fetch(`${APP}/api/namespace/insights?namespace=${namespace}&from=${today}&to=${today}`),
    ),
  };
}

/** The money and what it bought, row for row. */
async function ledger() {
  const db = await service.client.getDb();
  const tally = async (table: typeof feedback | typeof feedbackEvents | typeof webhookDeliveries) =>
    (await db.select({ n: count() }).from(table))[0]!.n;
  return {
    payments: await db.select().from(payments).orderBy(asc(payments.id)),
    payouts: await db.select().from(payouts).orderBy(asc(payouts.id)),
    namespaces: await db.select().from(namespaces).orderBy(asc(namespaces.name)),
    items: await tally(feedback),
    events: await tally(feedbackEvents),
    outbox: await tally(webhookDeliveries),
  };
}

beforeAll(async () => {
  if (skip) return;
  dataDir = await mkdtemp(path.join(tmpdir(), "move-source-"));
  target = await freshPostgres("move");
  service = await serviceOn({ pgliteDir: dataDir }, { OPS_TOKEN: undefined });
});

afterAll(async () => {
  await service?.close();
  await target?.drop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe.skipIf(skip)("moving the embedded database to PostgreSQL", () => {
  it("first serves a namespace's life on the embedded database", async () => {
    const webhookUrl = "https://hooks.example.com/feedback";
    await ok(owner.pay.fetch(`${APP}/api/namespace/register`, postJson({ namespace, webhookUrl })));
    // One payment of each protocol is kept, to be sent again after the move.
    const body = item("Checkout fails on /pay with code 502");
    const asked = await currentService(feedbackUrl, postJson(body));
    const signature = await agent.pay.sign(asked.headers.get("payment-required")!);
    const answer = await ok(currentService(feedbackUrl, postJson(body, { "payment-signature": signature })));
    kept.x402 = { body, signature, answer };
    const mppBody = item("Search is slow on Safari");
    const mppAnswer = await ok(agent.mpp.fetch(feedbackUrl, postJson(mppBody)));
    kept.mpp = { body: mppBody, signature: agent.mpp.sent.at(-1)!, answer: mppAnswer };
    ids.push(answer.id, mppAnswer.id);
    ids.push((await ok(agent.pay.fetch(feedbackUrl, postJson(item("Export drops the last row"))))).id);
    ids.push((await ok(agent.mpp.fetch(feedbackUrl, postJson(item("Login loops on mobile"))))).id);

    const resolved = await ok(
      owner.pay.fetch(`${APP}/api/namespace/resolve`, postJson({ feedbackId: ids[0], rewardAmount: "0.1" })),
    );
    expect(resolved.reward).toMatchObject({ amount: "0.1", recipient: agent.pay.address });
    const triage = { namespace, feedbackIds: [ids[2]], status: "needs_info", message: "Which browser?" };
    await ok(owner.read.fetch(`${APP}/api/namespace/feedback/status`, postJson(triage)));
    const labels = { namespace, feedbackIds: [ids[2], ids[3]], add: ["checkout", "export"], remove: [] };
    await ok(owner.read.fetch(`${APP}/api/namespace/feedback/labels`, postJson(labels)));
    // Off without OPS_TOKEN.
    expect((await currentService(`${APP}/ops/backup`, { method: "POST" })).status).toBe(404);

    const seen = await views();
    expect(seen.list.feedback).toHaveLength(4);
    expect(seen.record).toMatchObject({ id: ids[2], status: "needs_info", labels: ["checkout", "export"] });
    expect(seen.record.history.map((h: { kind: string }) => h.kind)).toEqual(["status", "labels"]);
    expect(seen.insights.totals.items).toBe(4);
    const held = await ledger();
    expect(held).toMatchObject({ items: 4, events: 4, payouts: [{ status: "paid", amount: "100000" }] });
    expect(held.outbox).toBeGreaterThan(0);
    before = { views: seen, ledger: held };
  });

  it("moves it with the service stopped, comparing both sides, and refuses a target that holds data", async () => {
    await service.close();
    const env = { DATABASE_URL: target.url, PGLITE_DIR: dataDir };
    const moved = await runScript("scripts/db/move-to-postgres.ts", [], env);
    expect(moved.code, moved.stdout + moved.stderr).toBe(0);
    expect(moved.stdout).not.toContain("DIFFERENT");
    expect(moved.stdout).toMatch(/payments fulfilled \(n \/ amount\)\s+6 \/ \d+\s+6 \/ \d+\s+ok/);
    expect(moved.stdout).toMatch(/every row of \d+ tables read back from the target as it was in the source/);
    const again = await runScript("scripts/db/move-to-postgres.ts", [], env);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/the target database already holds data \(in feedback, /);
  });

  it("then serves the same from PostgreSQL, answers a payment sent again without charging it", async () => {
    service = await serviceOn({ url: target.url }, { OPS_TOKEN: TOKEN });
    expect(await ledger()).toEqual(before.ledger);
    expect(await views()).toEqual(before.views);
    const backup = await currentService(`${APP}/ops/backup`, {
      method: "POST",
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(backup.status).toBe(404);
    expect((await backup.json()).detail).toMatch(/pg_dump/);

    const [evmBefore, tempoBefore] = [await evm.balanceOf(agent.pay.address), await usdcE(agent.pay.address)];
    const { x402, mpp } = kept as Required<typeof kept>;
    const headers = { "payment-signature": x402.signature };
    expect(await ok(currentService(feedbackUrl, postJson(x402.body, headers)))).toEqual(x402.answer);
    const mppHeaders = { authorization: mpp.signature };
    expect(await ok(currentService(feedbackUrl, postJson(mpp.body, mppHeaders)))).toEqual(mpp.answer);
    expect([await evm.balanceOf(agent.pay.address), await usdcE(agent.pay.address)]).toEqual([
      evmBefore,
      tempoBefore,
    ]);
    expect(await service.paid.recoverPaidWrites()).toEqual({
      settled: 0,
      failed: 0,
      fulfilled: 0,
      pending: 0,
      errors: 0,
      released: 0,
    });
    const db = await service.client.getDb();
    const open = await db
      .select({ id: payments.id })
      .from(payments)
      .where(inArray(payments.status, ["claimed", "settled"]));
    expect(open).toEqual([]);
    expect(await ledger()).toEqual(before.ledger);
  });

  it("and takes new paid calls over both protocols", async () => {
    const x402 = await ok(agent.pay.fetch(feedbackUrl, postJson(item("Upload stalls at 99%"))));
    const mpp = await ok(agent.mpp.fetch(feedbackUrl, postJson(item("Invoice total is off by one"))));
    const list = await ok(owner.read.fetch(`${APP}/api/namespace/list?namespace=${namespace}`));
    expect(list.feedback.map((f: { id: string }) => f.id)).toEqual(
      expect.arrayContaining([x402.id, mpp.id, ...ids]),
    );
    const { payments: after } = await ledger();
    expect(after).toHaveLength(before.ledger.payments.length + 2);
  });
});
