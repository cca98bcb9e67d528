import type { Account, Address, Chain, Client, Hex, Transport } from "viem";
import { createClient, defineChain, http, toHex } from "viem";
import { mnemonicToAccount, privateKeyToAccount } from "viem/accounts";
import { tempoLocalnet } from "viem/chains";
import { ANVIL_MNEMONIC, type DevAccount, deployer, payTo, testWallets } from "./accounts";
import { type AnvilHandle, startAnvil } from "./anvil";
import { startTempoRpcFront } from "./tempo-rpc";
import { fundTempoWallets, PATH_USD, pinFeeToken, plantUsdcE, seedFeePool, USDC_E } from "./tempo-usdce";

export { PATH_USD, USDC_E, USDC_E_SYMBOL } from "./tempo-usdce";

/**
 * Same id as viem's `tempoLocalnet`, and distinct from the EVM devnet (31337) so wallets and
 * MPP challenges (`methodDetails.chainId`) never mix the two local chains up.
 */
const TEMPO_DEVNET_CHAIN_ID = 1337;
/** Always t4: at anvil's default Tempo fork a payer's second payment is silently dropped. */
const TEMPO_HARDFORK = "t4";
/** 1000 USDC.e in base units (6 decimals). */
const DEFAULT_FUND_USDC_E = 1_000_000_000n;
/** 1000 pathUSD for fees, topped up only where a wallet has less (anvil's dev accounts have 2^64-1). */
const DEFAULT_FUND_PATH_USD = 1_000_000_000n;
/** HD index of the payout wallet: outside anvil's 10 dev accounts, so it is never a payer or the recipient. */
const PAYOUT_ADDRESS_INDEX = 10;

export type TempoDevnetInfo = {
  chainId: number;
  rpcUrl: string;
  /** TIP-20 USDC.e at its real Tempo mainnet address. */
  currency: typeof USDC_E;
  /** The service's MPP receiving wallet (anvil account 1, same as the EVM devnet's payTo). */
  recipient: Address;
  /** Secret: the wallet that sends USDC.e payouts (HD index 10 of anvil's mnemonic). */
  payoutPrivateKey: Hex;
  payoutAddress: Address;
  /** Fee token every funded wallet pays gas in (pathUSD). */
  feeToken: Address;
  /** USDC.e + pathUSD-funded payer wallets (anvil accounts 2..9). */
  accounts: DevAccount[];
};

/** What a viem client needs to talk to the devnet (also derivable from app env vars). */
export type TempoChainInfo = Pick<TempoDevnetInfo, "chainId" | "rpcUrl" | "feeToken">;

export type TempoDevnet = { info: TempoDevnetInfo; anvil: AnvilHandle; stop(): Promise<void> };

export type StartTempoDevnetOptions = {
  /** 0 or omitted: any free port. */
  port?: number;
  /** Base units of USDC.e minted to each payer and to the payout wallet (default 1000 USDC.e). */
  fundUsdcE?: bigint;
  /** Seconds between blocks (default 1; pace.ts: Tempo's own 0.6). */
  blockSeconds?: number | undefined;
};

/** The payout wallet, derived once (mnemonic → seed is ~50 ms). */
const payoutAccount: DevAccount = (() => {
  const hd = mnemonicToAccount(ANVIL_MNEMONIC, { addressIndex: PAYOUT_ADDRESS_INDEX });
  const key = hd.getHdKey().privateKey;
  if (!key) throw new Error("no private key derived for the payout wallet");
  return { address: hd.address, privateKey: toHex(key) };
})();

/**
 * A viem chain for the local Tempo node: viem's Tempo formatters/serializers (0x76 transactions,
 * expiring nonces) with the local id and RPC, and `feeToken` so every transaction names pathUSD.
 */
function tempoChain(info: TempoChainInfo) {
  return defineChain({
    ...tempoLocalnet,
    id: info.chainId,
    name: "Tempo Devnet",
    rpcUrls: { default: { http: [info.rpcUrl] } },
  }).extend({ hardfork: TEMPO_HARDFORK, feeToken: info.feeToken });
}

/** A Tempo client for the devnet, optionally with a local account (for Actions.token.* and mppx). */
export function tempoClient(info: TempoChainInfo): Client<Transport, Chain>;
export function tempoClient(info: TempoChainInfo, privateKey: Hex): Client<Transport, Chain, Account>;
export function tempoClient(
  info: TempoChainInfo,
  privateKey?: Hex,
): Client<Transport, Chain, Account | undefined> {
  return createClient({
    chain: tempoChain(info),
    transport: http(info.rpcUrl),
    ...(privateKey ? { account: privateKeyToAccount(privateKey) } : {}),
    // The chain mines every second; poll receipts faster than viem's 4 s default.
    pollingInterval: 250,
  });
}

/**
 * anvil in Tempo mode (t4, a block per second) + USDC.e at its real address + a USDC.e/pathUSD fee
 * pool + funded wallets, served through the fee-token front (tempo-rpc.ts) on `port`, so a wallet
 * that holds only USDC.e pays its fees in USDC.e as on Tempo itself. Stops anvil if any step fails.
 */
export async function startTempoDevnet(options: StartTempoDevnetOptions = {}): Promise<TempoDevnet> {
  const { port = 0, fundUsdcE = DEFAULT_FUND_USDC_E } = options;
  const node = await startAnvil({
    chainId: TEMPO_DEVNET_CHAIN_ID,
    // Mine on an interval: an on-demand chain falls behind the wall clock and MPP payments then
    // fail with "expiring nonce valid_before too far in the future".
    blockTime: options.blockSeconds ?? 1,
    extraArgs: ["--network", "tempo", "--hardfork", TEMPO_HARDFORK],
  });
  let front: Awaited<ReturnType<typeof startTempoRpcFront>> | undefined;
  const stop = async () => {
    await front?.stop();
    await node.stop();
  };
  try {
    front = await startTempoRpcFront({ upstream: node.rpcUrl, port });
    const base = { chainId: TEMPO_DEVNET_CHAIN_ID, rpcUrl: front.rpcUrl, feeToken: PATH_USD };
    // Account 0 (anvil's deployer) creates the token and is its admin/issuer.
    const admin = tempoClient(base, deployer.privateKey);
    await plantUsdcE(admin);

    const funded = [...testWallets, payoutAccount];
    await fundTempoWallets(
      admin,
      funded.map((w) => ({ address: w.address, usdcE: fundUsdcE, pathUsd: DEFAULT_FUND_PATH_USD })),
    );
    await pinFeeToken(funded.map((w) => tempoClient(base, w.privateKey)));
    await seedFeePool(admin, USDC_E);

    const info: TempoDevnetInfo = {
      ...base,
      currency: USDC_E,
      recipient: payTo.address,
      payoutPrivateKey: payoutAccount.privateKey,
      payoutAddress: payoutAccount.address,
      accounts: testWallets.map((w) => ({ ...w })),
    };
    return { info, anvil: { ...node, rpcUrl: front.rpcUrl, stop }, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}
