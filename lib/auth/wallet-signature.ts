import "server-only";
import { SignatureErc6492 } from "ox/erc6492";
import { SignatureErc8010 } from "ox/erc8010";
import type { Hex } from "viem";
import { type EvmNetwork, signInClient } from "./chains";

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
 * Whether a contract wallet vouches for `signature` over `hash`: EIP-1271 when the address holds code,
 * EIP-6492 (or ERC-8010) when the signature carries its own deployment; with neither, false without an
 * eth_call. Throws when the chain cannot answer.
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
