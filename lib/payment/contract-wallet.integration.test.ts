import { x402Client } from "@x402/core/client";
import { decodePaymentRequiredHeader, encodePaymentSignatureHeader } from "@x402/core/http";
import { ExactEvmScheme } from "@x402/evm/exact/client";
import { createSIWxPayload, encodeSIWxHeader } from "@x402/extensions/sign-in-with-x";
import { createTestClient, createWalletClient, hashTypedData, http, parseAbi } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { beforeAll, describe, expect, it } from "vitest";
import { devnetX402Payer } from "@/scripts/clients/x402-payer";
import { APP, appFetch, postJson, uniqueName } from "@/testing/app-fetch";
import { STUB_WALLET, STUB_WALLET_CODE, stubWalletSigner } from "@/testing/stub-chain";
import { workerDevnet } from "@/testing/worker-devnet";

// One address on two chains. A contract wallet pays over x402 on the EVM chain; the same address is
// also a contract on Tempo, whose owners could be anyone. The wallet is an identity on the chain it paid
// on only: its proof from Tempo reads nothing of it, and its report cannot be rewarded on Tempo.
const devnet = workerDevnet();
const owner = devnetX402Payer(devnet, 2, appFetch);
const namespace = uniqueName("cw");
const TEMPO = `eip155:${devnet.tempo.chainId}`;
let item = "";

/** Pays an x402 402 from the stub contract wallet: its EIP-1271 check accepts the typed-data digest. */
async function payFromContract(url: string, body: unknown) {
  const asked = await appFetch(url, postJson(body));
  expect(asked.status).toBe(402);
  const client = x402Client.fromConfig({
    schemes: [
      {
        network: devnet.x402.network,
        client: new ExactEvmScheme({
          address: STUB_WALLET,
          // The digest is what the stub checks; the padding makes it no 65-byte (ECDSA-shaped) signature.
          signTypedData: async (typed) =>
            `${hashTypedData(typed as Parameters<typeof hashTypedData>[0])}${"00".repeat(34)}`,
        }),
      },
    ],
    spendControls: {
      allowedAssets: [
        { network: devnet.x402.network, asset: devnet.x402.asset, maxAmountPerPayment: "1000000" },
      ],
    },
  });
  const payload = await client.createPaymentPayload(
    decodePaymentRequiredHeader(asked.headers.get("payment-required")!),
  );
  return appFetch(url, postJson(body, { "payment-signature": encodePaymentSignatureHeader(payload) }));
}

/** A sign-in proof by the stub contract wallet on `chainId`, for the challenge `url` answers. */
async function contractProof(url: string, chainId: string) {
  const asked = await appFetch(url);
  const ext = decodePaymentRequiredHeader(asked.headers.get("payment-required")!).extensions?.[
    "sign-in-with-x"
  ] as { info: Record<string, unknown>; supportedChains: { chainId: string; type: string }[] };
  const chain = ext.supportedChains.find((c) => c.chainId === chainId)!;
  const payload = await createSIWxPayload(
    { ...ext.info, chainId: chain.chainId, type: chain.type } as Parameters<typeof createSIWxPayload>[0],
    stubWalletSigner,
    url,
  );
  return encodeSIWxHeader(payload);
}

const signedGet = async (url: string, chainId: string) =>
  appFetch(url, { headers: { "sign-in-with-x": await contractProof(url, chainId) } });

beforeAll(async () => {
  // The contract on both chains, and USDC for it to pay with.
  for (const rpcUrl of [devnet.x402.rpcUrl, devnet.tempo.rpcUrl]) {
    await createTestClient({ mode: "anvil", transport: http(rpcUrl) }).setCode({
      address: STUB_WALLET,
      bytecode: STUB_WALLET_CODE,
    });
  }
  const funder = createWalletClient({
    account: privateKeyToAccount(devnet.accounts[7]!.privateKey),
    transport: http(devnet.x402.rpcUrl),
  });
  await funder.writeContract({
    chain: null,
    address: devnet.x402.asset,
    abi: parseAbi(["function transfer(address, uint256) returns (bool)"]),
    functionName: "transfer",
    args: [STUB_WALLET, 1_000_000n],
  });
  expect((await owner.fetch(`${APP}/api/namespace/register`, postJson({ namespace }))).status).toBe(200);
}, 120_000);

describe("a contract wallet that paid on the x402 chain", () => {
  it("files a report it reads back with a proof from that chain", async () => {
    const res = await payFromContract(`${APP}/api/namespace/feedback`, {
      namespace,
      type: "bug",
      title: "Paid from a contract wallet",
      description: "Filed by an EIP-1271 wallet over x402.",
    });
    expect(res.status, await res.clone().text()).toBe(200);
    item = (await res.json()).id;
    const mine = await signedGet(`${APP}/api/namespace/status?namespace=${namespace}`, devnet.x402.network);
    expect(mine.status).toBe(200);
    expect((await mine.json()).feedback.map((f: { id: string }) => f.id)).toEqual([item]);
    expect((await signedGet(`${APP}/api/namespace/feedback?id=${item}`, devnet.x402.network)).status).toBe(
      200,
    );
  });

  it("is a stranger to the same address proven by a contract on Tempo", async () => {
    const theirs = await signedGet(`${APP}/api/namespace/status?namespace=${namespace}`, TEMPO);
    expect(theirs.status, await theirs.clone().text()).toBe(200);
    expect((await theirs.json()).feedback).toEqual([]);
    expect((await signedGet(`${APP}/api/namespace/feedback?id=${item}`, TEMPO)).status).toBe(403);
  });

  it("cannot be rewarded on Tempo, and the owner is told so before paying", async () => {
    const res = await owner.fetch(
      `${APP}/api/namespace/resolve`,
      postJson({ feedbackId: item, message: "Thanks", rewardAmount: "0.01" }),
    );
    expect(res.status).toBe(409);
    expect(await res.json()).toMatchObject({ type: expect.stringMatching(/no-reward-recipient$/) });
  });
});
