import {
  type AbiFunction,
  createWalletClient,
  domainSeparator,
  http,
  parseAbi,
  toFunctionSelector,
  toHex,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { transferWithAuthorizationTypes } from "@/lib/chain/eip3009";
import { anvilAccounts, DEVNET_ACCOUNTS, deployer, payTo, refundWallet, testWallets } from "./accounts";
import { freePort, startAnvil } from "./anvil";
import { DEFAULT_FUND_USDC, type Devnet, startDevnet } from "./start-devnet";
import { devnetClients, fiatTokenArtifact, usdcAbi } from "./usdc";

const T = 60_000;
let devnet: Devnet | undefined;
let startMs = 0;

const get = () => {
  if (!devnet) throw new Error("devnet did not start");
  return devnet;
};

beforeAll(async () => {
  const t0 = performance.now();
  devnet = await startDevnet({ port: await freePort(), appUrl: "http://localhost:3000" });
  startMs = performance.now() - t0;
}, T);

// Runs even when a test fails, so anvil never outlives the suite.
afterAll(async () => {
  await devnet?.stop();
});

describe("devnet", () => {
  it("derives anvil's default accounts", () => {
    expect(anvilAccounts).toHaveLength(DEVNET_ACCOUNTS);
    expect(deployer.address).toBe("0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266");
    expect(payTo.address).toBe("0x70997970C51812dc3A010C7d01b50e0d17dc79C8");
    expect(testWallets).toHaveLength(8);
    // The refund wallet is none of the payers and not the receiving wallet: rewards and revenue stay apart.
    expect([payTo, ...testWallets].map((a) => a.address)).not.toContain(refundWallet.address);
    for (const a of anvilAccounts) expect(privateKeyToAccount(a.privateKey).address).toBe(a.address);
  });

  it(
    "matches the accounts the running anvil reports",
    async () => {
      // A wallet client without a local account asks the node (eth_accounts).
      const fromNode = await createWalletClient({ transport: http(get().info.x402.rpcUrl) }).getAddresses();
      expect(fromNode.map((a) => a.toLowerCase())).toEqual(anvilAccounts.map((a) => a.address.toLowerCase()));
    },
    T,
  );

  it("uses function signatures that exist in the shipped FiatTokenV2_2 artifact", () => {
    const shipped = new Set(
      fiatTokenArtifact()
        .abi.filter((x): x is AbiFunction => x.type === "function")
        .map((f) => toFunctionSelector(f)),
    );
    for (const f of usdcAbi.filter((x) => x.type === "function")) {
      expect(shipped.has(toFunctionSelector(f)), f.name).toBe(true);
    }
  });

  it(
    "starts with the expected x402 info",
    () => {
      const { info } = get();
      console.log(`devnet started in ${Math.round(startMs)} ms`);
      expect(info.x402).toMatchObject({ network: "eip155:31337", chainId: 31337, payTo: payTo.address });
      expect(info.x402.facilitatorPrivateKey).toBe(deployer.privateKey);
      expect(info.accounts.map((a) => a.address)).toEqual(testWallets.map((a) => a.address));
    },
    T,
  );

  it(
    "funds every test wallet with 1000 USDC and reports the EIP-712 domain",
    async () => {
      const { info } = get();
      const { publicClient } = await devnetClients(info.x402.rpcUrl, deployer.privateKey);
      const address = info.x402.asset;
      for (const wallet of info.accounts) {
        const balance = await publicClient.readContract({
          address,
          abi: usdcAbi,
          functionName: "balanceOf",
          args: [wallet.address],
        });
        expect(balance).toBe(DEFAULT_FUND_USDC);
      }
      const read = (functionName: "name" | "version" | "symbol") =>
        publicClient.readContract({ address, abi: usdcAbi, functionName });
      expect(await read("name")).toBe(info.x402.assetName);
      expect(await read("version")).toBe(info.x402.assetVersion);
      expect([info.x402.assetName, info.x402.assetVersion, await read("symbol")]).toEqual([
        "USD Coin",
        "2",
        "USDC",
      ]);
      const onChain = await publicClient.readContract({
        address,
        abi: parseAbi(["function DOMAIN_SEPARATOR() view returns (bytes32)"]),
        functionName: "DOMAIN_SEPARATOR",
      });
      const domain = {
        name: info.x402.assetName,
        version: info.x402.assetVersion,
        chainId: 31337,
        verifyingContract: address,
      };
      expect(onChain).toBe(domainSeparator({ domain }));
    },
    T,
  );

  it(
    "settles a real EIP-3009 transferWithAuthorization submitted by the facilitator",
    async () => {
      const { info } = get();
      const payer = privateKeyToAccount(info.accounts[0]!.privateKey);
      const { publicClient, walletClient } = await devnetClients(
        info.x402.rpcUrl,
        info.x402.facilitatorPrivateKey,
      );
      const address = info.x402.asset;
      const balanceOf = (who: `0x${string}`) =>
        publicClient.readContract({ address, abi: usdcAbi, functionName: "balanceOf", args: [who] });

      const value = 1_234_567n; // 1.234567 USDC
      const nonce = toHex(crypto.getRandomValues(new Uint8Array(32)));
      const message = {
        from: payer.address,
        to: info.x402.payTo,
        value,
        validAfter: 0n,
        validBefore: BigInt(Math.floor(Date.now() / 1000) + 600),
        nonce,
      };
      const signature = await payer.signTypedData({
        domain: {
          name: info.x402.assetName,
          version: info.x402.assetVersion,
          chainId: 31337,
          verifyingContract: address,
        },
        types: transferWithAuthorizationTypes,
        primaryType: "TransferWithAuthorization",
        message,
      });

      const [payerBefore, payToBefore] = await Promise.all([
        balanceOf(payer.address),
        balanceOf(info.x402.payTo),
      ]);
      const hash = await walletClient.writeContract({
        address,
        abi: usdcAbi,
        functionName: "transferWithAuthorization",
        args: [
          message.from,
          message.to,
          message.value,
          message.validAfter,
          message.validBefore,
          nonce,
          signature,
        ],
      });
      const receipt = await publicClient.waitForTransactionReceipt({ hash });
      expect(receipt.status).toBe("success");
      expect(receipt.from.toLowerCase()).toBe(deployer.address.toLowerCase());
      expect(await balanceOf(payer.address)).toBe(payerBefore - value);
      expect(await balanceOf(info.x402.payTo)).toBe(payToBefore + value);
      expect(
        await publicClient.readContract({
          address,
          abi: usdcAbi,
          functionName: "authorizationState",
          args: [payer.address, nonce],
        }),
      ).toBe(true);
    },
    T,
  );

  it(
    "reports a clear error, without private keys, when anvil cannot start",
    async () => {
      const busyPort = Number(new URL(get().info.x402.rpcUrl).port);
      const err = await startAnvil({ port: busyPort, chainId: 31337 }).then(
        () => undefined,
        (e: Error) => e,
      );
      expect(err?.message).toMatch(/anvil exited[\s\S]*Address already in use/);
      expect(err?.message).not.toMatch(/0x[0-9a-fA-F]{64}/);
    },
    T,
  );

  it(
    "stop() kills anvil",
    async () => {
      const { anvil, stop, info } = get();
      await stop();
      expect(anvil.process.exitCode !== null || anvil.process.signalCode !== null).toBe(true);
      await expect(fetch(info.x402.rpcUrl, { method: "POST", body: "{}" })).rejects.toThrow();
      await stop(); // idempotent
    },
    T,
  );
});
