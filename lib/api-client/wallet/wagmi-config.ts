import { type Chain, defineChain } from "viem";
import { type CreateConnectorFn, createConfig, http, injected } from "wagmi";
import type { ClientConfig } from "../config";
import { devnetProvider } from "./devnet-provider";

/** Connector ids of the devnet's test wallets start with this. */
export const DEVNET_CONNECTOR_PREFIX = "devnet-wallet-";

// Names and public RPCs of the networks x402 settles on. Not viem/chains: its OP Stack definitions bring
// transaction serializers the dashboard never uses (it only signs messages and typed data).
const KNOWN: Record<number, { name: string; rpc: string }> = {
  8453: { name: "Base", rpc: "https://mainnet.base.org" },
  84532: { name: "Base Sepolia", rpc: "https://sepolia.base.org" },
};

/** The chain payments are made on, with the browser RPC when one is configured. */
function chainOf(config: ClientConfig): Chain {
  const known = KNOWN[config.chainId];
  const rpc = config.rpcUrl ?? known?.rpc;
  return defineChain({
    id: config.chainId,
    name: known?.name ?? (config.devnetWallets.length ? "Local devnet" : `Chain ${config.chainId}`),
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: rpc ? [rpc] : [] } },
  });
}

/** wagmi for this deployment: injected wallets (EIP-6963 and window.ethereum), plus test wallets on the devnet. */
export function createWagmiConfig(config: ClientConfig) {
  const chain = chainOf(config);
  const connectors: CreateConnectorFn[] = [injected()];
  if (config.rpcUrl) {
    const rpcUrl = config.rpcUrl;
    config.devnetWallets.forEach((address, index) => {
      connectors.push(
        injected({
          target: {
            id: `${DEVNET_CONNECTOR_PREFIX}${index}`,
            name: `Test wallet ${index + 1}`,
            provider: () => devnetProvider(address, rpcUrl, config.chainId),
          },
        }),
      );
    });
  }
  return createConfig({
    chains: [chain],
    connectors,
    transports: { [chain.id]: http(chain.rpcUrls.default.http[0]) },
    ssr: true,
  });
}
