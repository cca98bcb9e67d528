import { createHash } from "node:crypto";
import { signOwnershipProof } from "@/lib/chain/ownership-proof";
import { extraFacilitators, payTo, refundWallet } from "./accounts";
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
    // The devnet's receiving wallet (x402 and MPP alike) proves it is this origin's, as scanners check.
    X402_OWNERSHIP_PROOFS: signOwnershipProof(new URL(info.appUrl).origin, payTo.privateKey),
    // One key per app instance (each holds one): the devnet runs up to four instances side by side.
    X402_FACILITATOR_PRIVATE_KEY: [
      info.x402.facilitatorPrivateKey,
      ...extraFacilitators.map((a) => a.privateKey),
    ].join(","),
    // Rewards paid with x402 go to this wallet, and come back from it when they cannot be forwarded.
    X402_REFUND_PRIVATE_KEY: refundWallet.privateKey,
    // Signs x402 offers and receipts: a key of its own, stable per devnet so receipts verify across restarts.
    OFFER_RECEIPT_PRIVATE_KEY: `0x${createHash("sha256").update(`offer-receipt:${info.appUrl}`).digest("hex")}`,
    MPP_SECRET_KEY: createHash("sha256").update(`mpp:${info.tempo.rpcUrl}:${info.appUrl}`).digest("hex"),
    MPP_RECIPIENT: info.tempo.recipient,
    MPP_CURRENCY: info.tempo.currency,
    TEMPO_RPC_URL: info.tempo.rpcUrl,
    TEMPO_CHAIN_ID: String(info.tempo.chainId),
    TEMPO_FEE_TOKEN: info.tempo.feeToken,
    PAYOUT_PRIVATE_KEY: info.tempo.payoutPrivateKey,
    // The dashboard's one-click test wallets: anvil keeps these accounts unlocked and signs for them.
    BROWSER_RPC_URL: info.x402.rpcUrl,
    DEVNET_TEST_WALLETS: info.accounts.map((a) => a.address).join(","),
    // Every local client (tests, benchmarks, the browser) shares one address and a few wallets: the
    // limits stay on (each request is still counted) but high enough never to refuse a test run.
    RATE_LIMIT_ADDRESS_PER_MINUTE: "100000",
    RATE_LIMIT_WALLET_PER_MINUTE: "100000",
    RATE_LIMIT_PAID_ADDRESS_PER_MINUTE: "100000",
    // Load shedding the same way: on, at a lag no test run's bursts on a loaded machine reach. `npm run
    // bench:pace` removes it, so its levels measure the default; `npm run bench`'s other sections keep it;
    // lib/payment/load-shed.integration.test.ts tests shedding itself.
    SHED_LOOP_DELAY_MS: "5000",
    // A webhook receiver on this machine (127.0.0.1, ::1) is reachable on the devnet only: the
    // configuration is refused on any other network.
    WEBHOOKS_ALLOW_LOOPBACK: "true",
    // Request logs stay off for local runs (dev, tests, e2e, bench, chaos print the server's output);
    // LOG_REQUESTS=true in the shell turns them on.
    LOG_REQUESTS: process.env.LOG_REQUESTS === "true" ? "true" : "false",
    ...(options.databaseUrl ? { DATABASE_URL: options.databaseUrl } : {}),
    ...(options.pgliteDir ? { PGLITE_DIR: options.pgliteDir } : {}),
  } satisfies Record<string, string>;
}
