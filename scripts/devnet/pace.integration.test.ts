import { createPublicClient, createWalletClient, defineChain, http } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLocalNonceManager } from "@/lib/chain/nonces";
import { createSender } from "@/lib/chain/sender";
import { startRpcProxy } from "@/testing/rpc-proxy";
import { deployer, testWallets } from "./accounts";
import { freePort } from "./anvil";
import { devnetPace, TEMPO_BLOCK_SECONDS } from "./pace";
import { type Devnet, startDevnet } from "./start-devnet";
import { devnetClients, usdcAbi } from "./usdc";

// The devnet at a real chain's pace (DEVNET_BLOCK_TIME): nothing is mined on arrival, blocks come at the
// interval, on the EVM chain (Base's 2 s) and on Tempo (its 0.6 s).
const T = 90_000;
let devnet: Devnet | undefined;

beforeAll(async () => {
  devnet = await startDevnet({
    port: await freePort(),
    appUrl: "http://localhost:3000",
    pace: { evmBlockSeconds: 2, tempoBlockSeconds: TEMPO_BLOCK_SECONDS },
  });
}, T);
afterAll(async () => {
  await devnet?.stop();
});

/** The timestamps of the chain's last `count + 1` blocks, oldest first. */
async function lastTimestamps(rpcUrl: string, count: number) {
  const client = createPublicClient({ transport: http(rpcUrl) });
  const head = await client.getBlockNumber();
  const numbers = Array.from({ length: count + 1 }, (_, i) => head - BigInt(count - i));
  const blocks = await Promise.all(numbers.map((blockNumber) => client.getBlock({ blockNumber })));
  return blocks.map((b) => Number(b.timestamp));
}

describe("DEVNET_BLOCK_TIME", () => {
  it("reads whole seconds, and refuses anything else naming the variable", () => {
    expect(devnetPace(undefined)).toBeNull();
    expect(devnetPace("")).toBeNull();
    expect(devnetPace("2")).toEqual({ evmBlockSeconds: 2, tempoBlockSeconds: 0.6 });
    for (const bad of ["0", "-2", "1.5", "two", "61"]) {
      expect(() => devnetPace(bad)).toThrow(/DEVNET_BLOCK_TIME must be whole seconds/);
    }
  });

  it(
    "mines a transaction only in the next 2 s block, and makes no block between",
    async () => {
      const { info } = devnet!;
      const { publicClient, walletClient } = await devnetClients(info.x402.rpcUrl, deployer.privateKey);
      expect(await publicClient.request({ method: "anvil_getAutomine" as never })).toBe(false);
      const hash = await walletClient.writeContract({
        address: info.x402.asset,
        abi: usdcAbi,
        functionName: "mint",
        args: [testWallets[1]!.address, 1n],
      });
      const receipt = await publicClient.waitForTransactionReceipt({ hash, timeout: 30_000 });
      expect(receipt.status).toBe("success");
      // Once set up, the chain makes a block every 2 s and no other: five intervals span about 10 s.
      const client = createPublicClient({ transport: http(info.x402.rpcUrl) });
      const start = receipt.blockNumber;
      await client.waitForTransactionReceipt({
        hash,
        confirmations: 6,
        timeout: 60_000,
        pollingInterval: 500,
      });
      const evm = await Promise.all(
        Array.from({ length: 6 }, (_, i) => client.getBlock({ blockNumber: start + BigInt(i) })),
      );
      expect(Number(evm.at(-1)!.timestamp - evm[0]!.timestamp)).toBeGreaterThanOrEqual(8);
      for (const block of evm.slice(1)) expect(block.transactions).toEqual([]);
    },
    T,
  );

  it(
    "makes Tempo blocks about every 0.6 s",
    async () => {
      const tempo = await lastTimestamps(devnet!.info.tempo.rpcUrl, 10);
      // About 6 s for ten blocks; a block a second would be 10.
      expect(tempo.at(-1)! - tempo[0]!).toBeLessThanOrEqual(8);
    },
    T,
  );

  it(
    "costs the sends behind a swallowed send's nonce a block or two, not the transport's timeout, and mines each once",
    async () => {
      const { info } = devnet!;
      const proxy = await startRpcProxy(info.x402.rpcUrl);
      try {
        const account = privateKeyToAccount(info.accounts[5]!.privateKey);
        const chain = defineChain({
          id: Number(info.x402.network.split(":")[1]),
          name: "devnet",
          nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
          rpcUrls: { default: { http: [proxy.url] } },
        });
        // The facilitator's settings: a 20 s transport timeout, and a look at an unanswered send after 3 s.
        const client = createWalletClient({
          account,
          chain,
          pollingInterval: 250,
          transport: http(proxy.url, { timeout: 20_000, retryCount: 0 }),
        });
        const sender = createSender({
          client,
          account,
          nonces: createLocalNonceManager(),
          receiptTimeoutMs: 20_000,
          lostSendCheckMs: 3_000,
        });
        const reader = createPublicClient({ transport: http(info.x402.rpcUrl) });
        const nonce = await reader.getTransactionCount({ address: account.address });
        const startBlock = await reader.getBlockNumber();
        let swallowed = false;
        proxy.setPolicy(({ method }) => {
          if (swallowed || !method.startsWith("eth_sendRawTransaction")) return { kind: "pass" };
          swallowed = true;
          return { kind: "drop" };
        });
        // The first send is swallowed; four more follow it, their nonces behind its own.
        const first = sender.send({ to: account.address, value: 1n });
        await new Promise((r) => setTimeout(r, 100));
        const sent = await Promise.all([
          first,
          ...Array.from({ length: 4 }, (_, i) => sender.send({ to: account.address, value: BigInt(i + 2) })),
        ]);
        const receipts = await Promise.all(
          sent.map((s) => s.receipt ?? sender.wait({ hash: s.hash, timeout: 30_000 })),
        );
        expect(proxy.stats().faults.drop).toBe(1);
        for (const receipt of receipts) expect(receipt.status).toBe("success");
        const mined = await Promise.all(sent.map((s) => reader.getTransaction({ hash: s.hash })));
        // The swallowed transaction itself took its nonce (no filler), and each nonce was used once.
        expect(mined.map((t) => t.nonce).sort((a, b) => a - b)).toEqual(
          [0, 1, 2, 3, 4].map((i) => nonce + i),
        );
        expect(await reader.getTransactionCount({ address: account.address })).toBe(nonce + 5);
        // Within a few 2 s blocks of the send (the look at 3 s, then the next block); waiting out the 20 s
        // timeout would take ten. Counted in blocks, which a busy machine slows alike.
        const last = Math.max(...receipts.map((r) => Number(r.blockNumber)));
        expect(last - Number(startBlock)).toBeLessThanOrEqual(6);
      } finally {
        await proxy.close();
      }
    },
    T,
  );
});
