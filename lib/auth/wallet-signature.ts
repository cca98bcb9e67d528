import "server-only";
import { SignatureErc6492 } from "ox/erc6492";
import { SignatureErc8010 } from "ox/erc8010";
import type { Hex } from "viem";
import { type EvmNetwork, signInClient } from "./chains";
import { recoverSigner } from "./ecrecover";

// An ECDSA signature as wallets send it: r, s and v (0, 1, 27 or 28), nothing else, as viem reads it.
const ECDSA_SIGNATURE = /^0x[0-9a-fA-F]{128}(?:0[01]|1[bBcC])$/;

/**
 * Whether `signature` over `hash` is plain `address`'s, by ECDSA recovery here: no RPC. A contract
 * wallet never passes it (its signature does not recover to its address): ask `verifyOnChain` then.
 */
export function recoversTo(address: string, hash: Hex, signature: string): boolean {
  if (!ECDSA_SIGNATURE.test(signature) || !/^0x[0-9a-fA-F]{64}$/.test(hash)) return false;
  const v = Number.parseInt(signature.slice(130), 16);
  const bytes = Buffer.from(signature.slice(2, 130), "hex");
  const recovered = recoverSigner(
    Buffer.from(hash.slice(2), "hex"),
    bytes.subarray(0, 32),
    bytes.subarray(32, 64),
    (v >= 27 ? v - 27 : v) as 0 | 1,
  );
  return recovered !== null && recovered === address.toLowerCase();
}

// Whether an address holds code rarely changes within minutes: a wallet is deployed once. A "no code"
// answer is kept shorter, so a wallet deployed just now is checked on chain soon after.
const CODE_TTL_MS = { yes: 10 * 60_000, no: 30_000 };
const MAX_CODE_ENTRIES = 10_000;
const codeSeen = new Map<string, { hasCode: boolean; until: number }>();

async function hasCode(network: EvmNetwork, address: Hex): Promise<boolean> {
  const key = `${network}:${address.toLowerCase()}`;
  const seen = codeSeen.get(key);
  if (seen && seen.until > Date.now()) return seen.hasCode;
  const code = await signInClient(network).getCode({ address });
  const answer = code !== undefined && code !== "0x";
  codeSeen.delete(key);
  if (codeSeen.size >= MAX_CODE_ENTRIES) codeSeen.delete(codeSeen.keys().next().value!);
  codeSeen.set(key, { hasCode: answer, until: Date.now() + CODE_TTL_MS[answer ? "yes" : "no"] });
  return answer;
}

/**
 * Whether a contract wallet vouches for `signature` over `hash` on `network`: EIP-1271 when the address
 * holds code, EIP-6492 (or ERC-8010) when the signature carries its own deployment. An address without
 * code and an unwrapped signature is no contract wallet: false without an eth_call. Throws when the
 * chain cannot answer.
 */
export async function verifyOnChain(
  network: EvmNetwork,
  args: { address: Hex; hash: Hex; signature: string },
): Promise<boolean> {
  const { address, hash, signature } = args;
  if (!/^0x[0-9a-fA-F]*$/.test(signature)) return false;
  const sig = signature as Hex;
  const wrapped = SignatureErc6492.validate(sig) || SignatureErc8010.validate(sig);
  if (!wrapped && !(await hasCode(network, address))) return false;
  return signInClient(network).verifyHash({ address, hash, signature: sig });
}
