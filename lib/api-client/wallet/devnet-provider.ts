import type { EIP1193Provider } from "viem";

type Rpc = { method: string; params?: unknown };

/**
 * A minimal EIP-1193 wallet for one of the devnet's test accounts: it knows only the address and
 * forwards signing to the local anvil node, which keeps its default accounts unlocked. Like a real
 * wallet it remembers (per browser) whether the site was given access, so reloads reconnect it.
 */
export function devnetProvider(address: `0x${string}`, rpcUrl: string, chainId: number): EIP1193Provider {
  const grantKey = `devnet-wallet.granted.${address.toLowerCase()}`;
  const granted = () => window.localStorage.getItem(grantKey) === "1";
  let id = 0;

  async function forward({ method, params }: Rpc): Promise<unknown> {
    const response = await fetch(rpcUrl, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: ++id, method, params: params ?? [] }),
    });
    const body = (await response.json()) as { result?: unknown; error?: { code: number; message: string } };
    if (body.error) throw Object.assign(new Error(body.error.message), { code: body.error.code });
    return body.result;
  }

  async function request({ method, params }: Rpc): Promise<unknown> {
    switch (method) {
      case "eth_chainId":
        return `0x${chainId.toString(16)}`;
      case "eth_accounts":
        return granted() ? [address] : [];
      case "eth_requestAccounts":
        window.localStorage.setItem(grantKey, "1");
        return [address];
      case "wallet_requestPermissions":
        window.localStorage.setItem(grantKey, "1");
        return [
          {
            parentCapability: "eth_accounts",
            caveats: [{ type: "restrictReturnedAccounts", value: [address] }],
          },
        ];
      case "wallet_revokePermissions":
        window.localStorage.removeItem(grantKey);
        return null;
      case "wallet_switchEthereumChain": {
        const [target] = (params ?? []) as [{ chainId: string }];
        if (Number(target?.chainId) === chainId) return null;
        throw Object.assign(new Error("The devnet test wallet only knows the local chain."), { code: 4902 });
      }
      case "eth_sendTransaction":
      case "eth_sign":
        throw Object.assign(new Error(`The test wallet does not support ${method}.`), { code: 4200 });
      default:
        // personal_sign, eth_signTypedData_v4 and reads: anvil answers them for its unlocked accounts.
        return forward({ method, params });
    }
  }

  return { request, on: () => {}, removeListener: () => {} } as unknown as EIP1193Provider;
}
