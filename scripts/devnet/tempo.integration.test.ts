import { Challenge, Receipt } from "mppx";
import { Mppx as MppxClient, tempo as tempoClientMethod } from "mppx/client";
import { Mppx as MppxServer, tempo as tempoServerMethod } from "mppx/server";
import { erc20Abi, type Hex, parseEventLogs, toHex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { getCode, readContract } from "viem/actions";
import { Abis, Actions } from "viem/tempo";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { payTo } from "./accounts";
import { PATH_USD, startTempoDevnet, type TempoDevnet, tempoClient, USDC_E, USDC_E_SYMBOL } from "./tempo";

const T = 60_000;
let devnet: TempoDevnet | undefined;
let startMs = 0;

const get = () => {
  if (!devnet) throw new Error("tempo devnet did not start");
  return devnet.info;
};
const usdcBalance = (address: Hex) =>
  Actions.token.getBalance(tempoClient(get()), { token: USDC_E, account: address }).then((b) => b.amount);

beforeAll(async () => {
  const t0 = performance.now();
  devnet = await startTempoDevnet();
  startMs = performance.now() - t0;
}, T);

// Runs even when a test fails, so anvil never outlives the suite.
afterAll(async () => {
  await devnet?.stop();
});

describe("tempo devnet", () => {
  it("serves USDC.e at its real address", async () => {
    const info = get();
    console.info(`tempo devnet ready in ${Math.round(startMs)} ms at ${info.rpcUrl} (chain ${info.chainId})`);
    const client = tempoClient(info);
    expect(await client.request({ method: "eth_chainId" })).toBe(toHex(info.chainId));
    expect(info.currency).toBe("0x20c000000000000000000000b9537d11c60e8b50");
    expect(await getCode(client, { address: USDC_E })).toBe("0xef"); // TIP-20 precompile marker
    const read = <F extends "decimals" | "symbol" | "name">(functionName: F) =>
      readContract(client, { address: USDC_E, abi: erc20Abi, functionName });
    expect(await read("decimals")).toBe(6);
    expect(await read("symbol")).toBe(USDC_E_SYMBOL);
    expect(await read("name")).toMatch(/USDC/);
    for (const a of [...info.accounts.map((w) => w.address), info.payoutAddress]) {
      expect(await usdcBalance(a)).toBe(1_000_000_000n);
      expect(
        (await Actions.token.getBalance(client, { token: PATH_USD, account: a })).amount,
      ).toBeGreaterThan(0n);
      expect((await Actions.fee.getUserToken(client, { account: a }))?.address.toLowerCase()).toBe(PATH_USD);
    }
    expect(info.recipient).toBe(payTo.address);
    expect(info.payoutAddress).not.toBe(info.recipient);
    expect(privateKeyToAccount(info.payoutPrivateKey).address).toBe(info.payoutAddress);
  });

  it(
    "lets a payer send transfer and transferWithMemo twice in a row",
    async () => {
      const info = get();
      const payer = info.accounts[0]!;
      const other = info.accounts[1]!;
      const client = tempoClient(info, payer.privateKey);
      const before = await usdcBalance(other.address);
      for (const memo of [
        undefined,
        undefined,
        toHex("memo-1", { size: 32 }),
        toHex("memo-2", { size: 32 }),
      ]) {
        const r = await Actions.token.transferSync(client, {
          token: USDC_E,
          to: other.address,
          amount: 1_000n,
          memo,
        });
        expect(r.receipt.status).toBe("success");
      }
      expect(await usdcBalance(other.address)).toBe(before + 4_000n);
    },
    T,
  );

  it(
    "charges 0.01 USDC.e over MPP (tempo/charge), twice from the same payer",
    async () => {
      const info = get();
      const mppx = MppxServer.create({
        methods: [
          tempoServerMethod.charge({
            currency: info.currency,
            recipient: info.recipient,
            getClient: () => tempoClient(info),
          }),
        ],
        secretKey: "test-secret-key-at-least-32-bytes-long!!",
        realm: "feedback.test",
      });
      // The whole "server": Request → Response, no socket needed.
      const handler = async (request: Request) => {
        const result = await mppx.charge({
          amount: "0.01",
          scope: "POST /api/feedback",
          description: "test",
        })(request);
        if (result.status === 402) return result.challenge;
        return result.withReceipt(Response.json({ ok: true }));
      };
      const serverFetch = (async (input: RequestInfo | URL, init?: RequestInit) =>
        handler(new Request(input, init))) as typeof fetch;

      const payer = info.accounts[2]!;
      const client = MppxClient.create({
        methods: [
          tempoClientMethod.charge({
            account: privateKeyToAccount(payer.privateKey),
            getClient: () => tempoClient(info),
          }),
        ],
        fetch: serverFetch,
        polyfill: false, // by default mppx replaces globalThis.fetch
      });

      const unpaid = await serverFetch("http://feedback.test/api/feedback", { method: "POST" });
      expect(unpaid.status).toBe(402);
      expect(unpaid.headers.get("www-authenticate")).toMatch(/^Payment /);
      const challenge = Challenge.fromResponse(unpaid);
      expect(challenge.method).toBe("tempo");
      expect(challenge.intent).toBe("charge");
      expect(challenge.realm).toBe("feedback.test");
      expect(challenge.request).toMatchObject({
        amount: "10000",
        currency: USDC_E,
        recipient: info.recipient,
        methodDetails: { chainId: info.chainId },
      });

      for (let i = 0; i < 2; i++) {
        const before = await usdcBalance(info.recipient);
        const paid = await client.fetch("http://feedback.test/api/feedback", { method: "POST" });
        expect(paid.status).toBe(200);
        expect(await paid.json()).toEqual({ ok: true });
        const receipt = Receipt.fromResponse(paid);
        expect(receipt).toMatchObject({ method: "tempo", status: "success" });
        expect(receipt.reference).toMatch(/^0x[0-9a-f]{64}$/);
        expect(await usdcBalance(info.recipient)).toBe(before + 10_000n);
      }
    },
    T,
  );

  it(
    "pays out USDC.e with a 32-byte memo from the payout wallet",
    async () => {
      const info = get();
      const to = info.accounts[3]!.address;
      const memo = toHex("payout:feedback-42", { size: 32 });
      const before = await usdcBalance(to);
      const payout = tempoClient(info, info.payoutPrivateKey);
      const r = await Actions.token.transferSync(payout, { token: USDC_E, to, amount: 250_000n, memo });
      expect(r.receipt.status).toBe("success");
      expect(r.receipt.transactionHash).toMatch(/^0x[0-9a-f]{64}$/);
      const [event] = parseEventLogs({
        abi: Abis.tip20,
        logs: r.receipt.logs,
        eventName: "TransferWithMemo",
      });
      expect(event?.args).toMatchObject({ from: info.payoutAddress, to, amount: 250_000n, memo });
      expect(await usdcBalance(to)).toBe(before + 250_000n);
    },
    T,
  );
});
