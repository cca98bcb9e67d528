import { gunzipSync } from "node:zlib";
import type { Account, Address, Chain, Client, Hex, Transport } from "viem";
import { readContract, sendTransactionSync } from "viem/actions";
import { Abis, Actions, Addresses } from "viem/tempo";

/** Tempo mainnet's USDC.e (bridged USDC, TIP-20, 6 decimals): planted at the same address locally. */
export const USDC_E = "0x20c000000000000000000000b9537d11c60e8b50" as const;
/** pathUSD: the default fee token on Tempo; anvil's tempo genesis gives every dev account 2^64-1 of it. */
export const PATH_USD = Addresses.pathUsd as "0x20c0000000000000000000000000000000000000";

const USDC_E_NAME = "Bridged USDC (Stargate)";
export const USDC_E_SYMBOL = "USDC.e";

/**
 * anvil 1.7.1 ignores the `calls` list of a Tempo (0x76) request in eth_fillTransaction and
 * eth_estimateGas and prices an empty call instead (always 771000 gas). A TIP-20 creation needs
 * ~2.8M, so setup transactions carry an explicit gas limit (only gas used is charged).
 */
const CREATE_TOKEN_GAS = 5_000_000n;
const BATCH_CALL_GAS = 600_000n;

type WalletClient = Client<Transport, Chain, Account>;

type DumpedAccount = { code: Hex; storage: Record<Hex, Hex> };

/**
 * Makes a TIP-20 token exist at USDC.e's real address on a local anvil (`--network tempo`). The factory
 * creates tokens only at addresses derived from (sender, salt), so one is created and cloned slot by slot: a
 * TIP-20's code is a 1-byte `0xef` marker and all its state lives in its address's storage.
 */
export async function plantUsdcE(client: WalletClient): Promise<void> {
  const existing = await rpc<Hex>(client, "eth_getCode", [USDC_E, "latest"]);
  if (existing && existing !== "0x") return; // already planted (e.g. anvil --load-state)

  // Admin = the client's account, so the clone keeps DEFAULT_ADMIN for it (role slots are
  // keyed by role and holder, not by the token address).
  const created = await Actions.token.createSync(client, {
    name: USDC_E_NAME,
    symbol: USDC_E_SYMBOL,
    currency: "USD",
    gas: CREATE_TOKEN_GAS,
  });

  // anvil has no storage enumeration RPC; its state dump (hex of gzipped JSON) lists every slot.
  const dump = await rpc<Hex>(client, "anvil_dumpState", []);
  const state = JSON.parse(gunzipSync(Buffer.from(dump.slice(2), "hex")).toString("utf8")) as {
    accounts: Record<string, DumpedAccount>;
  };
  const source = Object.entries(state.accounts).find(
    ([a]) => a.toLowerCase() === created.token.toLowerCase(),
  )?.[1];
  if (!source) throw new Error(`created TIP-20 ${created.token} missing from anvil_dumpState`);

  await rpc(client, "anvil_setCode", [USDC_E, source.code]);
  await Promise.all(
    Object.entries(source.storage).map(([slot, value]) =>
      rpc(client, "anvil_setStorageAt", [USDC_E, slot, value]),
    ),
  );

  const isTip20 = await readContract(client, {
    address: Addresses.tip20Factory,
    abi: Abis.tip20Factory,
    functionName: "isTIP20",
    args: [USDC_E],
  });
  if (!isTip20) throw new Error("USDC.e clone is not recognised as a TIP-20 by the factory");
}

export type FundTarget = { address: Address; usdcE: bigint; pathUsd: bigint };

/**
 * One Tempo batch transaction from the admin (one block instead of one per call): grant
 * itself ISSUER on USDC.e, mint USDC.e, and top up pathUSD (for fees) where it is missing.
 */
export async function fundTempoWallets(client: WalletClient, targets: readonly FundTarget[]): Promise<Hex> {
  const calls = [
    Actions.token.grantRoles.call(client, { token: USDC_E, role: "issuer", to: client.account.address }),
  ];
  for (const t of targets) {
    if (t.usdcE > 0n)
      calls.push(Actions.token.mint.call(client, { token: USDC_E, to: t.address, amount: t.usdcE }) as never);
    if (t.pathUsd <= 0n) continue;
    const have = await Actions.token.getBalance(client, { token: PATH_USD, account: t.address });
    if (have.amount < t.pathUsd) {
      const amount = t.pathUsd - have.amount;
      calls.push(Actions.token.transfer.call(client, { token: PATH_USD, to: t.address, amount }) as never);
    }
  }
  const receipt = await sendTransactionSync(client, {
    calls,
    gas: BATCH_CALL_GAS * BigInt(calls.length),
  } as never);
  if (receipt.status !== "success")
    throw new Error(`Tempo funding batch reverted (tx ${receipt.transactionHash})`);
  return receipt.transactionHash;
}

/** pathUSD the devnet puts in a fee pool: a fee costs well under a cent, so this lasts for ever. */
const FEE_POOL_PATH_USD = 1_000_000_000_000n;

/**
 * Adds pathUSD liquidity to the fee AMM's pool for `token`, so a wallet that pays its fees in that
 * token (as a wallet holding only USDC.e does) has them converted into pathUSD, the token anvil's
 * validator takes. Tempo mainnet has such pools; the local chain starts without any.
 */
export async function seedFeePool(client: WalletClient, token: Address): Promise<void> {
  const pool = await Actions.amm.getPool(client, { userToken: token, validatorToken: PATH_USD });
  if (pool.reserveValidatorToken >= FEE_POOL_PATH_USD / 2n) return;
  const { receipt } = await Actions.amm.mintSync(client, {
    userTokenAddress: token,
    validatorTokenAddress: PATH_USD,
    validatorTokenAmount: FEE_POOL_PATH_USD,
    to: client.account.address,
    gas: BATCH_CALL_GAS * 2n,
  } as never);
  if (receipt.status !== "success") throw new Error(`fee pool mint reverted (tx ${receipt.transactionHash})`);
}

/**
 * anvil does not infer the fee token from the transferred token: a wallet whose fee-manager
 * preference is unset or another stablecoin pays in that. Pin pathUSD (each wallet signs its
 * own `setUserToken`; all are sent at once so they land in the same block).
 */
export async function pinFeeToken(
  clients: readonly WalletClient[],
  token: Address = PATH_USD,
): Promise<void> {
  await Promise.all(
    clients.map(async (c) => {
      const current = await Actions.fee.getUserToken(c, { account: c.account.address });
      if (current?.address.toLowerCase() === token.toLowerCase()) return;
      const { receipt } = await Actions.fee.setUserTokenSync(c, { token });
      if (receipt.status !== "success") throw new Error(`setUserToken reverted for ${c.account.address}`);
    }),
  );
}

async function rpc<T = unknown>(client: Client, method: string, params: unknown[]): Promise<T> {
  return (await client.request({ method, params } as never)) as T;
}
