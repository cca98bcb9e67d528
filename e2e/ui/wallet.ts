import type { Page } from "@playwright/test";
import { type Hex, toHex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import type { DevnetInfo } from "../../scripts/devnet/start-devnet";

/** Set by e2e/global-setup.ts: the local chain and the `next start` server on it. */
export const devnet: DevnetInfo = JSON.parse(process.env.E2E_DEVNET ?? "null");
if (!devnet) throw new Error("E2E_DEVNET is not set: run through `playwright test` (global setup)");

type Rpc = { method: string; params: unknown[] };
type Reply = { result: unknown } | { error: { code: number; message: string } };

/**
 * A test wallet in the page: a tiny EIP-1193 `window.ethereum` whose requests are answered in the
 * test process by a viem private-key account (signing) or the devnet node (reads). wagmi's
 * `injected()` connector finds it like any browser wallet. `rejectNext` makes the wallet refuse the
 * next request of a kind with EIP-1193's 4001, as when a person clicks "Reject".
 */
export async function injectWallet(page: Page, privateKey: Hex) {
  const account = privateKeyToAccount(privateKey);
  const rejections = new Set<string>();
  const requests: string[] = [];

  async function answer({ method, params }: Rpc): Promise<unknown> {
    switch (method) {
      case "eth_accounts":
      case "eth_requestAccounts":
        return [account.address];
      case "wallet_requestPermissions":
        return [
          {
            parentCapability: "eth_accounts",
            caveats: [{ type: "restrictReturnedAccounts", value: [account.address] }],
          },
        ];
      case "wallet_revokePermissions":
        return null;
      case "eth_chainId":
        return toHex(devnet.x402.chainId);
      case "wallet_switchEthereumChain":
        return null;
      case "personal_sign":
        return account.signMessage({ message: { raw: params[0] as Hex } });
      case "eth_signTypedData_v4": {
        const data = JSON.parse(params[1] as string);
        const { EIP712Domain: _domain, ...types } = data.types;
        return account.signTypedData({
          domain: data.domain,
          types,
          primaryType: data.primaryType,
          message: data.message,
        });
      }
      default: {
        const response = await fetch(devnet.x402.rpcUrl, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
        });
        const body = (await response.json()) as {
          result?: unknown;
          error?: { code: number; message: string };
        };
        if (body.error) throw Object.assign(new Error(body.error.message), { code: body.error.code });
        return body.result;
      }
    }
  }

  await page.exposeFunction("__e2eWallet", async (rpc: Rpc): Promise<Reply> => {
    requests.push(rpc.method);
    if (rejections.delete(rpc.method))
      return { error: { code: 4001, message: "User rejected the request." } };
    try {
      return { result: await answer(rpc) };
    } catch (error) {
      const e = error as { code?: number; message?: string };
      return { error: { code: e.code ?? -32603, message: e.message ?? "wallet error" } };
    }
  });

  await page.addInitScript(() => {
    type Call = (rpc: { method: string; params: unknown[] }) => Promise<Reply>;
    const provider = {
      async request({ method, params }: { method: string; params?: unknown[] }) {
        // Looked up on each call: the binding Playwright exposes may land after this script runs.
        const call = (window as unknown as { __e2eWallet: Call }).__e2eWallet;
        const reply = await call({ method, params: params ?? [] });
        if ("error" in reply) throw Object.assign(new Error(reply.error.message), { code: reply.error.code });
        return reply.result;
      },
      on() {},
      removeListener() {},
    };
    Object.defineProperty(window, "ethereum", { value: provider, configurable: true });
  });

  return {
    address: account.address,
    /** The next request of this method is refused as a person would refuse it. */
    rejectNext: (method: string) => rejections.add(method),
    /** How many times the page asked the wallet for `method`. */
    count: (method: string) => requests.filter((m) => m === method).length,
  };
}
