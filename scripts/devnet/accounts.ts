import { pbkdf2Sync } from "node:crypto";
import { type Hex, toHex } from "viem";
import { HDKey, hdKeyToAccount } from "viem/accounts";

/** anvil's built-in dev mnemonic: every account below is pre-funded with 10000 ETH. */
export const ANVIL_MNEMONIC = "test test test test test test test test test test test junk";

export type DevAccount = { address: Hex; privateKey: Hex };

// BIP-39 seed computed once (PBKDF2-HMAC-SHA512, 2048 rounds); mnemonicToAccount would
// redo it for every index, which costs ~50 ms each.
function deriveAccounts(mnemonic: string, count: number): DevAccount[] {
  const seed = pbkdf2Sync(mnemonic.normalize("NFKD"), "mnemonic", 2048, 64, "sha512");
  const root = HDKey.fromMasterSeed(seed);
  return Array.from({ length: count }, (_, addressIndex) => {
    const account = hdKeyToAccount(root, { addressIndex });
    const key = account.getHdKey().privateKey;
    if (!key) throw new Error(`no private key derived for index ${addressIndex}`);
    return { address: account.address, privateKey: toHex(key) };
  });
}

/** How many accounts the devnet's EVM chain funds with ether (anvil --accounts). */
export const DEVNET_ACCOUNTS = 15;

/** The first accounts of m/44'/60'/0'/0/i, same order as anvil's banner. */
export const anvilAccounts: readonly DevAccount[] = Object.freeze(
  deriveAccounts(ANVIL_MNEMONIC, DEVNET_ACCOUNTS),
);

/** Index 0: deploys USDC, mints, and (as x402 facilitator) pays gas to settle. */
export const deployer: DevAccount = anvilAccounts[0]!;
/** Index 1: the service's receiving wallet. */
export const payTo: DevAccount = anvilAccounts[1]!;
/** Indices 2..9: payers funded with USDC by startDevnet. */
export const testWallets: readonly DevAccount[] = anvilAccounts.slice(2, 10);
// Index 10 is the Tempo payout wallet (scripts/devnet/tempo.ts): one key, one job.
/** Index 11: receives rewards paid with x402 and pays them back when a reward cannot be forwarded. */
export const refundWallet: DevAccount = anvilAccounts[11]!;
/** Indices 12..14: more facilitator keys, so several app instances each settle from a key of their own. */
export const extraFacilitators: readonly DevAccount[] = anvilAccounts.slice(12, 15);
