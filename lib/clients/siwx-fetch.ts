import { createSIWxClientExtension } from "@x402/extensions/sign-in-with-x";
import { wrapFetchWithPayment, x402Client } from "@x402/fetch";
import { privateKeyToAccount } from "viem/accounts";

/**
 * A fetch that signs in with the wallet whenever the service answers "Authentication Required",
 * using the official x402 sign-in-with-x client. Each retry uses a fresh, single-use challenge.
 */
export function createSignInFetch(
  privateKey: `0x${string}`,
  fetchImpl: typeof globalThis.fetch = globalThis.fetch,
) {
  const account = privateKeyToAccount(privateKey);
  const client = new x402Client().registerExtension(createSIWxClientExtension({ signers: [account] }));
  return { address: account.address, fetch: wrapFetchWithPayment(fetchImpl, client) };
}
