import { spawn } from "node:child_process";
import { createServer } from "node:net";
import path from "node:path";
import type { EVMSigner } from "@x402/extensions/sign-in-with-x";
import { createTestClient, hashMessage, http } from "viem";

/** Test-only: a contract wallet whose isValidSignature(hash, sig) says yes iff sig's first word is hash. */
export const STUB_WALLET = "0x000000000000000000000000000000000000c0de";
// calldataload(4) == calldataload(0x64) ? return 0x1626ba7e (ERC-1271 magic) : return 0.
const STUB_WALLET_CODE = "0x60043560643514600f5760206000f35b631626ba7e60e01b60005260206000f3";

/** Signs the way STUB_WALLET checks; override signMessage to forge. */
export const stubWalletSigner: EVMSigner = {
  address: STUB_WALLET,
  signMessage: async ({ message }) => hashMessage(message),
};

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Starts a private anvil with STUB_WALLET deployed; returns its RPC URL and a stop function. */
export async function startStubChain(): Promise<{ rpcUrl: string; stop: () => void }> {
  const port = await freePort();
  const anvil = spawn(
    path.resolve("node_modules/.bin/anvil"),
    ["--port", String(port), "--chain-id", "31337"],
    {
      stdio: "ignore",
    },
  );
  const rpcUrl = `http://127.0.0.1:${port}`;
  const client = createTestClient({ mode: "anvil", transport: http(rpcUrl, { retryCount: 0 }) });
  for (let attempt = 0; attempt < 100; attempt++) {
    try {
      await client.setCode({ address: STUB_WALLET, bytecode: STUB_WALLET_CODE });
      return { rpcUrl, stop: () => anvil.kill() };
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  anvil.kill();
  throw new Error("anvil did not start within 10 s");
}
