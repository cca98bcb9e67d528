import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import type { Address, Hex } from "viem";
import { DEVNET_ACCOUNTS, type DevAccount, deployer, payTo, refundWallet, testWallets } from "./accounts";
import { type AnvilHandle, startAnvil } from "./anvil";
import { type DevnetPace, devnetPace } from "./pace";
import { startTempoDevnet, type TempoDevnetInfo } from "./tempo";
import { deployUsdc, devnetClients, usdcAbi } from "./usdc";

const DEVNET_CHAIN_ID = 31337;
/** 1000 USDC in atomic units (6 decimals). */
export const DEFAULT_FUND_USDC = 1_000_000_000n;

export type DevnetInfo = {
  appUrl: string;
  x402: {
    network: `eip155:${number}`;
    chainId: number;
    rpcUrl: string;
    /** FiatTokenV2_2 address (the x402 `asset`). */
    asset: Address;
    payTo: Address;
    /** Receives rewards paid with x402, and refunds them when a reward cannot be forwarded. */
    refundWallet: Address;
    /** EIP-712 domain name/version as read from the token (x402 `extra.name` / `extra.version`). */
    assetName: string;
    assetVersion: string;
    /** Secret: the deployer key that pays gas to settle. Only ever written to devnet.json. */
    facilitatorPrivateKey: Hex;
  };
  /** The local Tempo chain for MPP payments and reward payouts (USDC.e at its real address). */
  tempo: TempoDevnetInfo;
  /** Payer wallets (anvil accounts 2..9), funded with USDC on the EVM chain and USDC.e on Tempo. */
  accounts: DevAccount[];
};

export type Devnet = { info: DevnetInfo; anvil: AnvilHandle; stop(): Promise<void> };

export type StartDevnetOptions = {
  /** 0 or omitted: any free port. */
  port?: number;
  /** Port of the local Tempo chain; 0 or omitted: any free port. */
  tempoPort?: number;
  /** When set, also writes `<dir>/devnet.json`. */
  dir?: string;
  appUrl: string;
  /** Atomic USDC minted to each test wallet (default 1000 USDC). */
  fundUsdc?: bigint;
  /** More flags for the EVM chain's anvil. */
  anvilArgs?: string[];
  /** Blocks at a real chain's pace (pace.ts); default: what DEVNET_BLOCK_TIME asks for. */
  pace?: DevnetPace | null;
};

/**
 * anvil (automine, and a block every 2 s; or at a real chain's pace, pace.ts) + real EIP-3009 USDC + funded
 * payers. Stops anvil if any step fails.
 */
export async function startDevnet(options: StartDevnetOptions): Promise<Devnet> {
  const { port = 0, dir, appUrl, fundUsdc = DEFAULT_FUND_USDC } = options;
  const pace = options.pace === undefined ? devnetPace() : options.pace;
  const [anvil, tempo] = await Promise.all([
    startAnvil({
      port,
      chainId: DEVNET_CHAIN_ID,
      // Blocks on arrival, and one every 2 s whatever happens, as Base makes them: an idle chain's head
      // would otherwise fall behind the clock, and a stale head decides nothing (lapsed in lib/chain).
      blockTime: pace?.evmBlockSeconds ?? 2,
      extraArgs: ["--accounts", String(DEVNET_ACCOUNTS), "--mixed-mining", ...(options.anvilArgs ?? [])],
    }),
    startTempoDevnet({ port: options.tempoPort ?? 0, blockSeconds: pace?.tempoBlockSeconds }),
  ]);
  const stop = async () => {
    await Promise.all([anvil.stop(), tempo.stop()]);
  };
  try {
    const usdc = await deployUsdc({ rpcUrl: anvil.rpcUrl, deployerKey: deployer.privateKey });
    await fundWallets(anvil.rpcUrl, usdc.address, fundUsdc);
    // Set up on arrival (fast), then at the pace: no transaction is mined before its block.
    if (pace) await intervalMiningOnly(anvil.rpcUrl, pace.evmBlockSeconds);
    const info: DevnetInfo = {
      appUrl,
      x402: {
        network: `eip155:${DEVNET_CHAIN_ID}`,
        chainId: DEVNET_CHAIN_ID,
        rpcUrl: anvil.rpcUrl,
        asset: usdc.address,
        payTo: payTo.address,
        refundWallet: refundWallet.address,
        assetName: usdc.name,
        assetVersion: usdc.version,
        facilitatorPrivateKey: deployer.privateKey,
      },
      tempo: tempo.info,
      accounts: testWallets.map((w) => ({ ...w })),
    };
    if (dir) await writeDevnetFile(info, join(dir, "devnet.json"));
    return { info, anvil, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

// One mint per wallet, sent back to back with explicit nonces, then awaited together:
// automine mines each on arrival, so this is ~8x faster than send-wait-send.
async function fundWallets(rpcUrl: string, usdc: Address, amount: bigint) {
  if (amount <= 0n) return;
  const { account, publicClient, walletClient } = await devnetClients(rpcUrl, deployer.privateKey);
  const nonce = await publicClient.getTransactionCount({ address: account.address, blockTag: "pending" });
  const hashes: Hex[] = [];
  for (const [i, wallet] of testWallets.entries()) {
    hashes.push(
      await walletClient.writeContract({
        address: usdc,
        abi: usdcAbi,
        functionName: "mint",
        args: [wallet.address, amount],
        nonce: nonce + i,
      }),
    );
  }
  const receipts = await Promise.all(
    hashes.map((hash) => publicClient.waitForTransactionReceipt({ hash, timeout: 120_000 })),
  );
  const failed = receipts.find((r) => r.status !== "success");
  if (failed) throw new Error(`USDC mint reverted (tx ${failed.transactionHash})`);
}

/** Turns automine off and keeps a block every `seconds`: what a chain without instant mining does. */
async function intervalMiningOnly(rpcUrl: string, seconds: number) {
  const { publicClient } = await devnetClients(rpcUrl, deployer.privateKey);
  // Turning automine off stops interval mining too; it is set again right after.
  await publicClient.request({ method: "evm_setAutomine" as never, params: [false] as never });
  await publicClient.request({ method: "evm_setIntervalMining" as never, params: [seconds] as never });
}

/** Writes devnet info as pretty JSON (contains the facilitator key: keep the file out of git). */
export async function writeDevnetFile(info: DevnetInfo, path = ".devnet/devnet.json"): Promise<string> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, `${JSON.stringify(info, null, 2)}\n`, { mode: 0o600 });
  return path;
}
