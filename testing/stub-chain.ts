import { spawn } from "node:child_process";
import path from "node:path";
import type { EVMSigner } from "@x402/extensions/sign-in-with-x";
import { createTestClient, hashMessage, http } from "viem";
import { freePort } from "@/scripts/devnet/anvil";

/** Test-only: a contract wallet whose isValidSignature(hash, sig) says yes iff sig's first word is hash. */
export const STUB_WALLET = "0x000000000000000000000000000000000000c0de";
// calldataload(4) == calldataload(0x64) ? return 0x1626ba7e (ERC-1271 magic) : return 0.
export const STUB_WALLET_CODE = "0x60043560643514600f5760206000f35b631626ba7e60e01b60005260206000f3";

/** Signs the way STUB_WALLET checks; override signMessage to forge. */
export const stubWalletSigner: EVMSigner = {
  address: STUB_WALLET,
  signMessage: async ({ message }) => hashMessage(message),
};

/**
 * Starts a private anvil (chain 31337 unless told) with STUB_WALLET deployed, or with nothing at that
 * address; returns its RPC URL and a stop function.
 */
export async function startStubChain(
  options: { chainId?: number; wallet?: boolean } = {},
): Promise<{ rpcUrl: string; stop: () => void }> {
  const { chainId = 31337, wallet = true } = options;
  const port = await freePort();
  const anvil = spawn(
    path.resolve("node_modules/.bin/anvil"),
    ["--port", String(port), "--chain-id", String(chainId)],
    { stdio: "ignore" },
  );
  const rpcUrl = `http://127.0.0.1:${port}`;
  const client = createTestClient({ mode: "anvil", transport: http(rpcUrl, { retryCount: 0 }) });
  for (let attempt = 0; attempt < 100; attempt++) {
    try {
      if (wallet) await client.setCode({ address: STUB_WALLET, bytecode: STUB_WALLET_CODE });
      else await client.getAutomine();
      return { rpcUrl, stop: () => anvil.kill() };
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  anvil.kill();
  throw new Error("anvil did not start within 10 s");
}
