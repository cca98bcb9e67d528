import { createHash } from "node:crypto";
import type { DevnetInfo } from "./start-devnet";

/** The environment the app needs to run against a devnet: everything production reads, pointed local. */
export function devnetAppEnv(info: DevnetInfo, options: { databaseUrl?: string; pgliteDir?: string } = {}) {
  return {
    PUBLIC_ORIGIN: info.appUrl,
    // Stable per devnet so cursors survive a dev-server restart; never used outside local chains.
    APP_SECRET: createHash("sha256").update(`devnet:${info.x402.asset}:${info.appUrl}`).digest("hex"),
    X402_NETWORK: info.x402.network,
    X402_RPC_URL: info.x402.rpcUrl,
    X402_ASSET: info.x402.asset,
    X402_ASSET_NAME: info.x402.assetName,
    X402_ASSET_VERSION: info.x402.assetVersion,
    X402_PAY_TO: info.x402.payTo,
    X402_FACILITATOR_PRIVATE_KEY: info.x402.facilitatorPrivateKey,
    ...(options.databaseUrl ? { DATABASE_URL: options.databaseUrl } : {}),
    ...(options.pgliteDir ? { PGLITE_DIR: options.pgliteDir } : {}),
  } satisfies Record<string, string>;
}
