import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { expect, test } from "@playwright/test";
import { Mppx, tempo as tempoMethod } from "mppx/client";
import { type Address, createClient, http } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { tempoLocalnet } from "viem/chains";
import { Actions } from "viem/tempo";
import { createSignInFetch } from "../../scripts/clients/siwx-fetch";
import { deployer } from "../../scripts/devnet/accounts";
import { PATH_USD, tempoClient } from "../../scripts/devnet/tempo";
import { fundTempoWallets } from "../../scripts/devnet/tempo-usdce";
import { APP, devnet, expectProblem, item, postJson, uniqueName, url } from "./fixtures";

// Wallets made here, holding only USDC.e, pay as a standard client would: no fee token named, no fee
// preference set, no pathUSD. Only this file funds from the deployer on the Tempo chain.
test.describe.configure({ mode: "serial" });

const tempo = devnet.tempo;
const TEMPO_NETWORK = `eip155:${tempo.chainId}`;
const PRICE = 10_000n;
const admin = tempoClient(tempo, deployer.privateKey);
const reader = tempoClient(tempo);
/** The CLI npm installs as `npx mppx` (its package exports no path to it). */
const mppxCli = path.join(process.cwd(), "node_modules", "mppx", "dist", "bin.js");

const balance = async (token: Address, account: Address) =>
  (await Actions.token.getBalance(reader, { token, account })).amount;

/** A new wallet that holds `usdcE` base units of USDC.e and nothing else. */
async function freshWallet(usdcE: bigint) {
  const privateKey = generatePrivateKey();
  const { address } = privateKeyToAccount(privateKey);
  await fundTempoWallets(admin, [{ address, usdcE, pathUsd: 0n }]);
  expect(await balance(PATH_USD, address)).toBe(0n);
  return { privateKey, address };
}

/** The mppx library as its README shows it: the chain's own definition, nothing devnet-specific. */
function standardMppx(privateKey: `0x${string}`, feeToken?: Address) {
  const chain = feeToken ? tempoLocalnet.extend({ feeToken }) : tempoLocalnet;
  return Mppx.create({
    methods: [
      tempoMethod.charge({
        account: privateKeyToAccount(privateKey),
        getClient: () => createClient({ chain, transport: http(tempo.rpcUrl) }),
      }),
    ],
    polyfill: false,
  });
}

test("a wallet holding only USDC.e pays with the mppx CLI, its fee in USDC.e, and reads its item after signing in on Tempo", async () => {
  const wallet = await freshWallet(1_000_000n);
  const namespace = uniqueName("cli-");
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [mppxCli, url("feedback"), "--rpc-url", tempo.rpcUrl, "--silent", "-J", JSON.stringify(item(namespace))],
    // No keychain, no config file: the key comes from the environment, as in a CI job.
    {
      env: { ...process.env, MPPX_PRIVATE_KEY: wallet.privateKey, HOME: test.info().outputPath() },
      timeout: 60_000,
    },
  );
  const submitted = JSON.parse(stdout) as { id: string; namespace: string };
  expect(submitted).toMatchObject({ namespace, registered: false });

  const left = await balance(tempo.currency, wallet.address);
  const fee = 1_000_000n - PRICE - left;
  expect(fee, "the fee was paid in USDC.e").toBeGreaterThan(0n);
  expect(fee, "a fee is well under a cent").toBeLessThan(10_000n);
  expect(await balance(PATH_USD, wallet.address)).toBe(0n);

  // The same wallet follows up: it signs in on the Tempo chain the 402 lists, and status shows the item.
  const signIn = createSignInFetch(wallet.privateKey, fetch, { chainId: TEMPO_NETWORK });
  const status = await signIn.fetch(`${APP}/api/namespace/status`);
  expect(status.status).toBe(200);
  expect(await status.json()).toEqual({
    submitter: wallet.address,
    count: 1,
    feedback: [expect.objectContaining({ id: submitted.id, namespace, resolved: false })],
  });
  const record = await signIn.fetch(`${APP}/api/namespace/feedback?id=${submitted.id}`);
  expect(record.status).toBe(200);
});

test("the 402 offers sign-in on the x402 chain and on Tempo", async () => {
  const res = await fetch(`${APP}/api/namespace/status`);
  expect(res.status).toBe(402);
  const required = JSON.parse(Buffer.from(res.headers.get("payment-required")!, "base64").toString());
  const chains = required.extensions["sign-in-with-x"].supportedChains.map(
    (c: { chainId: string }) => c.chainId,
  );
  expect(chains).toEqual([devnet.x402.network, TEMPO_NETWORK]);
});

test("the mppx library pays from a USDC.e-only wallet with the chain's own definition", async () => {
  const wallet = await freshWallet(1_000_000n);
  const namespace = uniqueName("lib-");
  const res = await standardMppx(wallet.privateKey).fetch(url("feedback"), postJson(item(namespace)));
  expect(res.status, await res.clone().text()).toBe(200);
  expect(await balance(tempo.currency, wallet.address)).toBeLessThan(1_000_000n - PRICE);
  expect(await balance(PATH_USD, wallet.address)).toBe(0n);
});

test("a payment that would revert on chain is a 402 naming the reason, never a 503, and charges nothing", async () => {
  // A client told to pay its fee in pathUSD, which this wallet does not hold: the transfer is signed,
  // and the service's simulation of it reverts.
  const wallet = await freshWallet(1_000_000n);
  const client = standardMppx(wallet.privateKey, PATH_USD);
  const body = item(uniqueName("rev-"));
  const asked = await fetch(url("feedback"), postJson(body));
  expect(asked.status).toBe(402);
  const credential = await client.createCredential(asked);
  const res = await fetch(url("feedback"), postJson(body, { authorization: credential }));
  const problem = await expectProblem(res, 402);
  expect(problem.detail).toMatch(/would fail on chain/);
  expect(problem.detail).not.toMatch(/retry/i);
  expect(await balance(tempo.currency, wallet.address)).toBe(1_000_000n);
});
