/** What the browser needs to know about the deployment; rendered by the server into the page. */
export type ClientConfig = {
  /** The public origin of the service, e.g. "https://feedback.example.com". */
  origin: string;
  /** CAIP-2 network payments are made on, e.g. "eip155:8453". */
  network: `${string}:${string}`;
  chainId: number;
  /** The USDC contract payments are made in. */
  asset: `0x${string}`;
  assetDecimals: number;
  /** RPC endpoint the browser may call; null when the wallet's own RPC is enough. */
  rpcUrl: string | null;
  /** Devnet only: unlocked test wallets offered as one-click connections. Empty in production. */
  devnetWallets: `0x${string}`[];
  /** Prices in USD decimal strings. */
  prices: { register: string; feedback: string; followUp: string; maxReward: string };
};
