import type { SignInChallenge } from "../types";

/**
 * The EIP-4361 text for a challenge, built with `siwe`. Loaded on demand: `siwe` brings ethers along,
 * and only the moment of signing in needs it.
 */
export async function buildSignInMessage(
  challenge: SignInChallenge,
  address: `0x${string}`,
): Promise<string> {
  const { SiweMessage } = await import("siwe");
  return new SiweMessage({ ...challenge, address }).prepareMessage();
}
