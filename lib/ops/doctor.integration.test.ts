import { spawn } from "node:child_process";
import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { like } from "drizzle-orm";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signOwnershipProof } from "@/lib/chain/ownership-proof";
import { getDb, openDb } from "@/lib/db/client";
import { instances } from "@/lib/db/schema";
import { parseServerEnv } from "@/lib/env";
import { payTo } from "@/scripts/devnet/accounts";
import { workerAppEnv, workerDevnet } from "@/testing/worker-devnet";
import { runDoctor } from "./doctor";
import { databaseItems } from "./doctor-database";
import type { DoctorItem } from "./doctor-item";
import { tempoItems } from "./doctor-tempo";
import { x402Items } from "./doctor-x402";
import { secretDigests } from "./instances";

const appEnv = workerAppEnv();
const devnet = workerDevnet();
let dir: string;
let base: Record<string, string>;
const servers: Server[] = [];

/** The environment the devnet's app runs with, changed by `overrides` (undefined removes a variable). */
const config = (overrides: Record<string, string | undefined> = {}) =>
  parseServerEnv({ ...base, ...overrides });
/** Off the devnet the devnet-only variables are refused: a "real network" config drops them. */
const offDevnet = { DEVNET_TEST_WALLETS: undefined, WEBHOOKS_ALLOW_LOOPBACK: undefined };
const named = (items: DoctorItem[], item: string) => items.find((i) => i.item === item)!;

/** `npm run doctor` as an operator runs it, with only this environment (no vitest variables). */
function doctor(overrides: Record<string, string> = {}): Promise<{ code: number | null; output: string }> {
  const env = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    NODE_ENV: "production" as const,
    ...base,
    ...overrides,
  };
  return new Promise((resolve, reject) => {
    const child = spawn("npm", ["run", "--silent", "doctor"], { cwd: process.cwd(), env });
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, output }));
  });
}

/** An HTTP server on a free port answering every request with `answer`; null never answers. */
async function serve(answer: ((url: string) => unknown) | null): Promise<string> {
  const server = createServer((req, res) => {
    if (answer) res.setHeader("content-type", "application/json").end(JSON.stringify(answer(req.url!)));
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "doctor-"));
  const pgliteDir = path.join(dir, "pglite");
  // Migrated, then closed: the doctor refuses to open an embedded database another handle holds.
  await (await openDb({ url: appEnv.DATABASE_URL, dataDir: pgliteDir })).close();
  base = { ...appEnv, PGLITE_DIR: pgliteDir };
});

afterAll(async () => {
  for (const server of servers) {
    server.closeAllConnections();
    server.close();
  }
  await rm(dir, { recursive: true, force: true });
});

describe("npm run doctor", () => {
  it("passes every item on the devnet's own configuration, printing no secret", async () => {
    const { code, output } = await doctor();
    console.log(output);
    expect(code).toBe(0);
    const lines = output.split("\n").filter((line) => /^(ok|warn|error|skip) /.test(line));
    expect(lines.length).toBeGreaterThanOrEqual(14);
    expect(lines.filter((line) => !line.startsWith("ok "))).toEqual([]);
    const secrets = [
      base.APP_SECRET,
      base.MPP_SECRET_KEY,
      base.PAYOUT_PRIVATE_KEY,
      base.X402_REFUND_PRIVATE_KEY,
      base.OFFER_RECEIPT_PRIVATE_KEY,
    ];
    for (const secret of [...secrets, ...base.X402_FACILITATOR_PRIVATE_KEY!.split(",")]) {
      expect(output).not.toContain(secret!.slice(2));
    }
  });

  it("fails naming X402_ASSET_NAME when the token's EIP-712 name is another", async () => {
    const { code, output } = await doctor({ X402_ASSET_NAME: "USDC" });
    expect(code).toBe(1);
    expect(output).toMatch(
      /^error +x402 asset EIP-3009 domain: .*X402_ASSET_NAME is "USDC" but the token's name\(\) is "USD Coin".*Fix: set X402_ASSET_NAME="USD Coin"/m,
    );
  });
});

describe("the doctor's items, one misconfiguration at a time", () => {
  it("names X402_ASSET_VERSION and X402_ASSET_DECIMALS when they are not the token's", async () => {
    const items = await x402Items(config({ X402_ASSET_VERSION: "1", X402_ASSET_DECIMALS: "18" }), 5_000);
    expect(named(items, "x402 asset EIP-3009 domain")).toMatchObject({
      status: "error",
      fix: 'set X402_ASSET_VERSION="2"',
    });
    expect(named(items, "x402 asset decimals")).toMatchObject({
      status: "error",
      fix: "set X402_ASSET_DECIMALS=6",
    });
  });

  it("names X402_NETWORK and TEMPO_CHAIN_ID when the RPCs serve other chains", async () => {
    const [x402, tempo] = await Promise.all([
      x402Items(config({ ...offDevnet, X402_NETWORK: "eip155:8453" }), 5_000),
      tempoItems(config({ TEMPO_CHAIN_ID: "4217" }), 5_000),
    ]);
    expect(named(x402, "x402 chain").status).toBe("error");
    expect(named(x402, "x402 chain").detail).toContain("serves chain 31337, but X402_NETWORK is eip155:8453");
    expect(named(x402, "x402 asset decimals").status).toBe("skip");
    expect(named(tempo, "tempo chain").detail).toContain("serves chain 1337, but TEMPO_CHAIN_ID is 4217");
  });

  it("reports an unreachable or silent RPC as an error within the bound, without its URL", async () => {
    const closed = await serve(null);
    servers.pop()!.close();
    const silent = await serve(null);
    const started = performance.now();
    const [refused, late] = await Promise.all([
      x402Items(config({ X402_RPC_URL: `${closed}/v2/SECRET-API-KEY` }), 500),
      tempoItems(config({ TEMPO_RPC_URL: `${silent}/SECRET-API-KEY` }), 500),
    ]);
    // Bounded: without the 500 ms bound, viem's own timeout and retries would take 40 s.
    expect(performance.now() - started).toBeLessThan(8_000);
    expect(named(refused, "x402 chain")).toMatchObject({
      status: "error",
      detail: expect.stringContaining("unreachable"),
    });
    expect(named(late, "tempo chain").detail).toContain("no answer within 500 ms");
    expect(JSON.stringify([refused, late])).not.toContain("SECRET");
  });

  it("names the wallet to fund: a payout wallet and a facilitator key with nothing in them", async () => {
    const e = config({
      PAYOUT_PRIVATE_KEY: generatePrivateKey(),
      X402_FACILITATOR_PRIVATE_KEY: generatePrivateKey(),
    });
    const [x402, tempo] = await Promise.all([x402Items(e, 5_000), tempoItems(e, 5_000)]);
    expect(named(x402, "x402 facilitator key 1")).toMatchObject({
      status: "error",
      fix: expect.stringContaining("X402_FACILITATOR_PRIVATE_KEY"),
    });
    expect(named(tempo, "tempo payout wallet")).toMatchObject({
      status: "error",
      detail: expect.stringContaining("PAYOUT_PRIVATE_KEY"),
    });
  });

  it("warns, without failing, when no refund wallet is configured", async () => {
    const items = await x402Items(config({ X402_REFUND_PRIVATE_KEY: undefined }), 5_000);
    expect(named(items, "x402 refund wallet")).toMatchObject({
      status: "warn",
      detail: expect.stringContaining("X402_REFUND_PRIVATE_KEY"),
    });
    expect(items.filter((i) => i.status === "error")).toEqual([]);
  });

  it("asks a remote facilitator's /supported for the exact scheme on this network", async () => {
    const facilitator = (network: string) =>
      serve(() => ({ kinds: [{ x402Version: 2, scheme: "exact", network }], extensions: [], signers: {} }));
    const remote = (url: string) =>
      config({ X402_FACILITATOR_PRIVATE_KEY: undefined, X402_FACILITATOR_URL: url });
    const [right, wrong] = await Promise.all([
      x402Items(remote(await facilitator("eip155:31337")), 5_000),
      x402Items(remote(await facilitator("eip155:8453")), 5_000),
    ]);
    expect(named(right, "x402 facilitator").status).toBe("ok");
    expect(right.some((i) => i.item.startsWith("x402 facilitator key"))).toBe(false);
    expect(named(wrong, "x402 facilitator")).toMatchObject({
      status: "error",
      fix: expect.stringContaining("X402_FACILITATOR_URL"),
    });
  });

  it("names a remote facilitator's signer with no gas, from the signers its /supported names", async () => {
    const empty = privateKeyToAccount(generatePrivateKey()).address;
    const funded = devnet.accounts[1]!.address;
    const url = await serve(() => ({
      kinds: [{ x402Version: 2, scheme: "exact", network: "eip155:31337" }],
      extensions: [],
      signers: { "eip155:*": [funded, empty] },
    }));
    const items = await x402Items(
      config({ X402_FACILITATOR_PRIVATE_KEY: undefined, X402_FACILITATOR_URL: url }),
      5_000,
    );
    expect(named(items, "x402 facilitator signer 1").status).toBe("ok");
    expect(named(items, "x402 facilitator signer 2")).toMatchObject({
      status: "error",
      detail: expect.stringContaining(empty),
      fix: expect.stringContaining("X402_FACILITATOR_URL"),
    });
    const silent = await serve(() => ({
      kinds: [{ x402Version: 2, scheme: "exact", network: "eip155:31337" }],
      extensions: [],
      signers: {},
    }));
    const unnamed = await x402Items(
      config({ X402_FACILITATOR_PRIVATE_KEY: undefined, X402_FACILITATOR_URL: silent }),
      5_000,
    );
    expect(named(unnamed, "x402 facilitator signers").status).toBe("warn");
  });

  it("blames a token that does not exist on MPP_CURRENCY or TEMPO_FEE_TOKEN, not on the RPC", async () => {
    const nowhere = privateKeyToAccount(generatePrivateKey()).address;
    const currency = await tempoItems(config({ MPP_CURRENCY: nowhere }), 5_000);
    expect(named(currency, "tempo chain").status).toBe("ok");
    expect(named(currency, "tempo currency")).toMatchObject({
      status: "error",
      fix: expect.stringContaining("MPP_CURRENCY"),
    });
    expect(named(currency, "tempo payout wallet").status).toBe("skip");
    const fees = await tempoItems(config({ TEMPO_FEE_TOKEN: nowhere }), 5_000);
    expect(named(fees, "tempo currency").status).toBe("ok");
    expect(named(fees, "tempo fee token")).toMatchObject({
      status: "error",
      fix: expect.stringContaining("TEMPO_FEE_TOKEN"),
    });
  });

  it("refuses a zero address to be paid, and says a missing secret is not set", async () => {
    const zero = `0x${"0".repeat(40)}`;
    for (const variable of ["X402_PAY_TO", "MPP_RECIPIENT"]) {
      const items = await runDoctor({ ...base, [variable]: zero });
      expect(items).toEqual([
        expect.objectContaining({
          status: "error",
          detail: expect.stringMatching(new RegExp(`^${variable}: .*zero address`)),
        }),
      ]);
    }
    const missing = await runDoctor({ ...base, MPP_SECRET_KEY: undefined });
    expect(missing.map((i) => i.detail)).toEqual(["MPP_SECRET_KEY: is required and not set"]);
  });

  it.runIf(appEnv.DATABASE_URL)(
    "names MPP_SECRET_KEY or APP_SECRET when a running instance uses another",
    async () => {
      const db = await getDb();
      const mine = await secretDigests(config());
      const seen = new Date();
      const row = { role: "web", host: "other-host", pid: 4242, startedAt: seen, seenAt: seen };
      await db.insert(instances).values({ ...row, id: "doctor-test-same", secrets: mine });
      try {
        expect(named(await databaseItems(config(), 5_000), "shared secrets").status).toBe("ok");
        await db
          .insert(instances)
          .values({ ...row, id: "doctor-test-other", secrets: { ...mine, MPP_SECRET_KEY: "0".repeat(32) } });
        const item = named(await databaseItems(config(), 5_000), "shared secrets");
        expect(item).toMatchObject({ status: "error", fix: expect.stringContaining("MPP_SECRET_KEY") });
        expect(item.detail).toContain("web on other-host (pid 4242)");
        expect(item.detail).not.toContain("APP_SECRET");
      } finally {
        await db.delete(instances).where(like(instances.id, "doctor-test-%"));
      }
    },
  );

  it("names the key that signs offers and receipts and where it is published; warns without one; refuses a key that moves money", async () => {
    const signed = await runDoctor(base, { timeoutMs: 5_000 });
    const did = `did:web:${encodeURIComponent(new URL(base.PUBLIC_ORIGIN!).host)}`;
    expect(named(signed, "x402 offers and receipts")).toMatchObject({
      status: "ok",
      detail: expect.stringMatching(
        new RegExp(`^signed as ${did}#offer-receipt-[0-9a-f]{8}, published at .*/\\.well-known/did\\.json$`),
      ),
    });
    const unsigned = await runDoctor({ ...base, OFFER_RECEIPT_PRIVATE_KEY: undefined }, { timeoutMs: 5_000 });
    expect(named(unsigned, "x402 offers and receipts")).toMatchObject({
      status: "warn",
      detail: expect.stringContaining("OFFER_RECEIPT_PRIVATE_KEY is not set"),
    });
    for (const moving of [base.PAYOUT_PRIVATE_KEY, base.X402_REFUND_PRIVATE_KEY]) {
      const items = await runDoctor({ ...base, OFFER_RECEIPT_PRIVATE_KEY: moving });
      expect(items).toEqual([
        expect.objectContaining({
          status: "error",
          detail: expect.stringMatching(/^OFFER_RECEIPT_PRIVATE_KEY: must be a key of its own/),
        }),
      ]);
    }
  });

  it("checks the ownership proofs: each signed by a wallet the origin is paid to, X402_PAY_TO among them", async () => {
    const item = async (overrides: Record<string, string | undefined>) =>
      named(await runDoctor({ ...base, ...overrides }, { timeoutMs: 5_000 }), "ownership proofs");
    expect(await item({})).toMatchObject({
      status: "ok",
      detail: expect.stringContaining("X402_PAY_TO and MPP_RECIPIENT proven"),
    });
    const stranger = signOwnershipProof(base.PUBLIC_ORIGIN!, generatePrivateKey());
    expect(await item({ X402_OWNERSHIP_PROOFS: `${base.X402_OWNERSHIP_PROOFS},${stranger}` })).toMatchObject({
      status: "error",
      detail: expect.stringMatching(
        /^X402_OWNERSHIP_PROOFS proof 2 is signed by 0x[0-9a-f]{40}, not by a wallet/,
      ),
      fix: expect.stringContaining("npm run ownership-proof"),
    });
    // The right wallet, for another origin: a scanner recovers another signer from it.
    const otherOrigin = signOwnershipProof("https://elsewhere.example", payTo.privateKey);
    expect((await item({ X402_OWNERSHIP_PROOFS: otherOrigin })).status).toBe("error");
    // No proof of the wallet the money goes to is an error about money, not about a scanner's ranking.
    expect(await item({ X402_OWNERSHIP_PROOFS: undefined })).toMatchObject({
      status: "error",
      detail: expect.stringMatching(
        /proves no ownership of X402_PAY_TO \(0x[0-9a-fA-F]{40}\) or MPP_RECIPIENT.*stranger/,
      ),
    });
    const anotherWallet = privateKeyToAccount(generatePrivateKey()).address;
    expect(await item({ MPP_RECIPIENT: anotherWallet })).toMatchObject({
      status: "error",
      detail: expect.stringContaining(`proves no ownership of MPP_RECIPIENT (${anotherWallet})`),
    });
  });

  it("refuses an MPP_SECRET_KEY or APP_SECRET a person chose, naming it", async () => {
    const chosen = "correct horse battery staple, our feedback secret";
    const items = await runDoctor({ ...base, MPP_SECRET_KEY: chosen }, { timeoutMs: 5_000 });
    expect(named(items, "secret strength")).toMatchObject({
      status: "error",
      detail: expect.stringMatching(/^MPP_SECRET_KEY looks like fewer than 32 random bytes/),
      fix: expect.stringContaining("openssl rand -hex 32"),
    });
    expect(JSON.stringify(items)).not.toContain(chosen);
    expect(named(await runDoctor(base, { timeoutMs: 5_000 }), "secret strength").status).toBe("ok");
  });

  it("refuses a receiving address with a wrong checksum, the token contract itself, or a contract not declared one", async () => {
    const mistyped = payTo.address
      .replace(/[a-f]/, (c) => c.toUpperCase())
      .replace(/[A-F]/, (c) => c.toLowerCase());
    for (const variable of ["X402_PAY_TO", "MPP_RECIPIENT"]) {
      const items = await runDoctor({ ...base, [variable]: mistyped });
      expect(items, variable).toEqual([
        expect.objectContaining({
          status: "error",
          detail: expect.stringMatching(new RegExp(`^${variable}: .*checksum`)),
        }),
      ]);
    }
    const asset = await runDoctor({ ...base, X402_PAY_TO: base.X402_ASSET! });
    expect(asset).toEqual([
      expect.objectContaining({
        status: "error",
        detail: expect.stringMatching(/^X402_PAY_TO: is the token contract itself/),
      }),
    ]);
    // A contract at the receiving address: refused, unless the operator says it is its contract wallet.
    const contract = privateKeyToAccount(generatePrivateKey()).address;
    await fetch(devnet.x402.rpcUrl, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "anvil_setCode", params: [contract, "0x6000"] }),
    });
    const receiver = async (overrides: Record<string, string>) =>
      named(await x402Items(config(overrides), 5_000), "x402 receiving wallet");
    expect(await receiver({ X402_PAY_TO: contract })).toMatchObject({
      status: "error",
      detail: expect.stringContaining("holds code"),
      fix: expect.stringContaining("X402_PAY_TO_IS_CONTRACT=true"),
    });
    expect((await receiver({ X402_PAY_TO: contract, X402_PAY_TO_IS_CONTRACT: "true" })).status).toBe("ok");
    expect((await receiver({})).status).toBe("ok");
    expect(named(await tempoItems(config(), 5_000), "tempo receiving wallet").status).toBe("ok");
  });

  it("refuses an http PUBLIC_ORIGIN off the devnet (the chain id fails too)", async () => {
    const items = await runDoctor(
      { ...base, ...offDevnet, X402_NETWORK: "eip155:8453" },
      { timeoutMs: 5_000 },
    );
    expect(named(items, "public origin")).toMatchObject({
      status: "error",
      fix: expect.stringContaining("PUBLIC_ORIGIN"),
    });
    expect(named(items, "x402 chain").status).toBe("error");
    expect(named(items, "database migrations").status).toBe("ok");
  });

  it("compares the migrations applied with the ones shipped, both ways", async () => {
    const journalOf = async (folder: string) =>
      JSON.parse(await readFile(path.join(folder, "meta/_journal.json"), "utf8"));
    const ahead = path.join(dir, "ahead");
    const behind = path.join(dir, "behind");
    await Promise.all([
      cp("drizzle", ahead, { recursive: true }),
      cp("drizzle", behind, { recursive: true }),
    ]);
    const journal = await journalOf(ahead);
    const last = journal.entries.at(-1);
    journal.entries.push({ ...last, idx: last.idx + 1, when: last.when + 1, tag: "9999_doctor_test" });
    await writeFile(path.join(ahead, "meta/_journal.json"), JSON.stringify(journal));
    await writeFile(path.join(ahead, "9999_doctor_test.sql"), "select 1;");
    journal.entries.splice(-2, 2);
    await writeFile(path.join(behind, "meta/_journal.json"), JSON.stringify(journal));
    // One after the other: two handles on one embedded database at once is what the doctor avoids.
    const pending = await databaseItems(config(), 5_000, ahead);
    const unknown = await databaseItems(config(), 5_000, behind);
    expect(named(pending, "database migrations")).toMatchObject({
      status: "warn",
      detail: expect.stringContaining("9999_doctor_test"),
    });
    expect(named(unknown, "database migrations").status).toBe("error");
  });

  // The embedded database's own guard: a PostgreSQL run has no embedded database to hold.
  it.skipIf(appEnv.DATABASE_URL)("leaves an embedded database another process holds open alone", async () => {
    const dataDir = path.join(dir, "pglite");
    const held = await PGlite.create(dataDir);
    try {
      const items = await databaseItems(config({ DATABASE_URL: undefined, PGLITE_DIR: dataDir }), 5_000);
      expect(named(items, "database").status).toBe("warn");
      expect(named(items, "database migrations").status).toBe("skip");
    } finally {
      await held.close();
    }
  });

  it("reports an invalid configuration by variable, and checks nothing else", async () => {
    const items = await runDoctor({ ...base, X402_ASSET: "not-an-address", SHED_LOOP_DELAY_MS: "soon" });
    expect(items).toEqual([
      expect.objectContaining({
        status: "error",
        item: "configuration",
        fix: expect.stringContaining("X402_ASSET"),
      }),
      expect.objectContaining({
        status: "error",
        item: "configuration",
        detail: "SHED_LOOP_DELAY_MS: must be a whole number of milliseconds, 0 to turn it off",
      }),
    ]);
  });
});
