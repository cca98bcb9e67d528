import { expect, test } from "@playwright/test";
import fc from "fast-check";
import { Credential } from "mppx";
import postgres from "postgres";
import { createPublicClient, type Hex, http, parseAbiItem } from "viem";
import { getLogs } from "viem/actions";
import { Abis } from "viem/tempo";
import { createMppFetch } from "../../scripts/clients/mpp-payer";
import { createSignInFetch } from "../../scripts/clients/siwx-fetch";
import { createX402Fetch } from "../../scripts/clients/x402-payer";
import { freePort } from "../../scripts/devnet/anvil";
import { devnetAppEnv } from "../../scripts/devnet/app-env";
import { type Devnet, startDevnet } from "../../scripts/devnet/start-devnet";
import { authorizationOf, nonceBurner } from "../../testing/eip3009";
import { type AppInstance, appInstance } from "../chaos/apps";
import { encodingMutations, fieldMutations, meaning } from "./credential-mutations";

// An attacker with funded wallets against `next start` on a devnet of this file's own (no other test
// pays from its wallets, so every balance and transfer on chain is the attacker's doing).
test.describe.configure({ mode: "serial" });

let devnet: Devnet;
let app: AppInstance;
let database: { sql: postgres.Sql; drop: () => Promise<void> } | undefined;
const base = () => app.url;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  const port = await freePort();
  devnet = await startDevnet({ appUrl: `http://localhost:${port}` });
  let databaseUrl = "";
  if (process.env.DATABASE_URL) {
    // A database of its own, so "no claim is left open" reads only this file's ledger.
    const name = `adversarial_${Math.random().toString(36).slice(2, 10)}`;
    const admin = postgres(process.env.DATABASE_URL, { max: 1, onnotice: () => {} });
    await admin.unsafe(`create database ${name}`);
    const url = new URL(process.env.DATABASE_URL);
    url.pathname = `/${name}`;
    databaseUrl = url.toString();
    const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} });
    database = {
      sql,
      drop: async () => {
        await sql.end();
        await admin.unsafe(`drop database if exists ${name} with (force)`);
        await admin.end();
      },
    };
  }
  app = appInstance(
    port,
    { ...devnetAppEnv(devnet.info, { pgliteDir: "memory://" }), DATABASE_URL: databaseUrl },
    () => {},
  );
  await app.start();
});

test.afterAll(async () => {
  await app?.stop();
  await database?.drop();
  await devnet?.stop();
});

const x402Payer = (i: number) =>
  createX402Fetch({
    privateKey: devnet.info.accounts[i]!.privateKey,
    network: devnet.info.x402.network,
    rpcUrl: devnet.info.x402.rpcUrl,
    asset: devnet.info.x402.asset,
  });
const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${base()}/api/namespace/${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
const item = (namespace: string) => ({
  namespace,
  type: "bug",
  title: "Free lunch",
  description: "Paid with a trick.",
});

/** USDC transfers from `from` to the service on the x402 chain, read from the chain itself. */
async function paidToService(from: Hex) {
  const client = createPublicClient({ transport: http(devnet.info.x402.rpcUrl) });
  const logs = await getLogs(client, {
    address: devnet.info.x402.asset,
    event: parseAbiItem("event Transfer(address indexed from, address indexed to, uint256 value)"),
    args: { from, to: devnet.info.x402.payTo },
    fromBlock: 0n,
  });
  return logs.length;
}

/** Items the wallet has submitted, as its own signed status read shows them. */
async function submitted(privateKey: Hex, namespace: string) {
  const reader = createSignInFetch(privateKey);
  const res = await reader.fetch(`${base()}/api/namespace/status?namespace=${namespace}`);
  expect(res.status).toBe(200);
  return ((await res.json()) as { count: number }).count;
}

/**
 * No ledger row is left claimed. Read on PostgreSQL; the embedded database lives inside the app, so
 * there each test proves it through the real credential still paying once at the end.
 */
async function expectNoOpenClaims() {
  if (!database) return;
  const [row] =
    await database.sql`select count(*)::int as n from payments where status in ('claimed', 'settled')`;
  expect(row!.n, "ledger rows left claimed").toBe(0);
}

test("a payment whose nonce the payer cancelled first: 402, nothing stored, nothing moved", async () => {
  const attacker = devnet.info.accounts[0]!;
  const payer = x402Payer(0);
  const namespace = "cancel-first";
  const asked = await post("feedback", item(namespace));
  const signature = await payer.sign(asked.headers.get("payment-required")!);
  await nonceBurner(devnet.info, attacker.privateKey).cancel(authorizationOf(signature).nonce);

  const res = await post("feedback", item(namespace), { "payment-signature": signature });
  expect(res.status).toBe(402);
  expect((await res.json()).detail).toMatch(/canceled/);
  expect(await paidToService(attacker.address)).toBe(0);
  expect(await submitted(attacker.privateKey, namespace)).toBe(0);
  await expectNoOpenClaims();
});

test("a cancel racing the settlement: paid and stored once, or refused with nothing stored", async () => {
  const attacker = devnet.info.accounts[1]!;
  const payer = x402Payer(1);
  const burner = nonceBurner(devnet.info, attacker.privateKey);
  let paid = 0;
  for (let round = 0; round < 8; round++) {
    const namespace = `race-${round}`;
    const asked = await post("feedback", item(namespace));
    const signature = await payer.sign(asked.headers.get("payment-required")!);
    const before = await paidToService(attacker.address);
    const [res] = await Promise.all([
      post("feedback", item(namespace), { "payment-signature": signature }),
      new Promise((r) => setTimeout(r, round % 3)).then(() =>
        burner.cancel(authorizationOf(signature).nonce).catch(() => "the settlement used the nonce first"),
      ),
    ]);
    const moved = (await paidToService(attacker.address)) - before;
    const stored = await submitted(attacker.privateKey, namespace);
    if (res.status === 200) paid++;
    else expect(res.status, await res.text()).toBe(402);
    expect([moved, stored]).toEqual(res.status === 200 ? [1, 1] : [0, 0]);
  }
  test.info().annotations.push({ type: "race", description: `${paid} of 8 settled before the cancel` });
  await expectNoOpenClaims();
});

test("every mutation of a real x402 credential is refused with a 4xx, and none stores, moves money or stays claimed", async () => {
  const attacker = devnet.info.accounts[2]!;
  const payer = x402Payer(2);
  const namespace = "x402-mutants";
  const asked = await post("feedback", item(namespace));
  const signature = await payer.sign(asked.headers.get("payment-required")!);
  const original = JSON.parse(Buffer.from(signature, "base64").toString());
  const encode = (json: string) => Buffer.from(json).toString("base64");
  // Left out as no change of meaning: the optional resource (the payer signs recipient and amount), and
  // the contents of `extensions`, which echo the 402's advertisements (the Bazaar schemas) and pay nothing:
  // the service asks only that it be an object when present.
  // The resource's Bazaar metadata (serviceName, tags, iconUrl) describes the seller, not what is bought:
  // the service compares the resource's url, description and type alone, so a change to the rest is none.
  const advisory = (value: Record<string, unknown>) => {
    const { extensions, ...rest } = value;
    const plain =
      extensions === undefined ||
      (typeof extensions === "object" && extensions !== null && !Array.isArray(extensions));
    const bought = (resource: unknown) => {
      if (resource === null || typeof resource !== "object" || Array.isArray(resource)) return resource;
      const { serviceName: _n, tags: _t, iconUrl: _i, ...what } = resource as Record<string, unknown>;
      return what;
    };
    const described = "resource" in rest ? { ...rest, resource: bought(rest.resource) } : rest;
    return plain
      ? described
      : { ...value, ...("resource" in value ? { resource: bought(value.resource) } : {}) };
  };
  const equivalent = (mutated: unknown) => {
    if (mutated === null || typeof mutated !== "object" || Array.isArray(mutated)) return false;
    const core = advisory(mutated as Record<string, unknown>);
    const base = advisory(original);
    return meaning(core) === meaning(base) || meaning(core) === meaning({ ...base, resource: undefined });
  };
  const refusals: Record<number, number> = {};
  const check = async (header: string, what: string) => {
    const res = await post("feedback", item(namespace), { "payment-signature": header });
    expect(res.status, `${what}: ${await res.clone().text()}`).toBeGreaterThanOrEqual(400);
    expect(res.status, what).toBeLessThan(500);
    refusals[res.status] = (refusals[res.status] ?? 0) + 1;
  };
  await fc.assert(
    fc.asyncProperty(fieldMutations(original), async (mutation) => {
      const mutated = mutation.apply(original);
      fc.pre(!equivalent(JSON.parse(JSON.stringify(mutated))));
      await check(encode(JSON.stringify(mutated)), mutation.describe);
    }),
    { numRuns: 80 },
  );
  await fc.assert(
    fc.asyncProperty(encodingMutations(encode), async (m) =>
      check(m.header(JSON.stringify(original)), m.describe),
    ),
    { numRuns: 8 },
  );
  test.info().annotations.push({ type: "x402 refusals", description: JSON.stringify(refusals) });
  expect(await paidToService(attacker.address)).toBe(0);
  expect(await submitted(attacker.privateKey, namespace)).toBe(0);
  await expectNoOpenClaims();
  // No mutation spent or held the real credential: it still pays, once.
  const res = await post("feedback", item(namespace), { "payment-signature": signature });
  expect(res.status).toBe(200);
  expect(await paidToService(attacker.address)).toBe(1);
  expect(await submitted(attacker.privateKey, namespace)).toBe(1);
});

test("every mutation of a real MPP credential is refused with a 4xx, and none stores, moves money or stays claimed", async () => {
  const attacker = devnet.info.accounts[3]!;
  const mpp = createMppFetch(devnet.info.tempo, attacker.privateKey, fetch);
  const namespace = "mpp-mutants";
  const asked = await post("feedback", item(namespace));
  const credential = await mpp.createCredential(asked);
  const original = JSON.parse(Buffer.from(credential.replace(/^Payment /, ""), "base64url").toString());
  const encode = (json: string) => `Payment ${Buffer.from(json).toString("base64url")}`;
  // Left out as no change of meaning: the optional source (the signed transaction names the payer).
  const equivalent = (mutated: unknown) =>
    meaning(mutated) === meaning(original) ||
    meaning(mutated) === meaning({ ...original, source: undefined });
  const tempo = createPublicClient({ transport: http(devnet.info.tempo.rpcUrl) });
  const moved = async () =>
    (
      await getLogs(tempo, {
        address: devnet.info.tempo.currency,
        event: Abis.tip20.find((x) => x.type === "event" && x.name === "Transfer") as never,
        args: { from: attacker.address } as never,
        fromBlock: 0n,
      })
    ).length;
  const check = async (header: string, what: string) => {
    const res = await post("feedback", item(namespace), { authorization: header });
    expect(res.status, `${what}: ${await res.clone().text()}`).toBeGreaterThanOrEqual(400);
    expect(res.status, what).toBeLessThan(500);
  };
  await fc.assert(
    fc.asyncProperty(fieldMutations(original), async (mutation) => {
      const mutated = mutation.apply(original);
      fc.pre(!equivalent(JSON.parse(JSON.stringify(mutated))));
      await check(encode(JSON.stringify(mutated)), mutation.describe);
    }),
    { numRuns: 40 },
  );
  await fc.assert(
    fc.asyncProperty(encodingMutations(encode), async (m) =>
      check(m.header(JSON.stringify(original)), m.describe),
    ),
    { numRuns: 8 },
  );
  expect(await moved()).toBe(0);
  expect(await submitted(attacker.privateKey, namespace)).toBe(0);
  await expectNoOpenClaims();
  const res = await post("feedback", item(namespace), { authorization: credential });
  expect(res.status, await res.clone().text()).toBe(200);
  expect(Credential.deserialize(credential).challenge.id).toBeTruthy();
  expect(await submitted(attacker.privateKey, namespace)).toBe(1);
});
