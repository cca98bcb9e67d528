/**
 * `npm run dev`: the whole service on one machine — a local chain with real USDC, funded test
 * wallets, the in-process facilitator and the app on the embedded database. Nothing to configure; a test
 * running it beside other servers moves it with PORT, DEVNET_PORT, DEVNET_TEMPO_PORT, PGLITE_DIR,
 * NEXT_DIST_DIR and DEVNET_FILE (where the chains and wallets are written, .devnet/devnet.json).
 */
import { spawn } from "node:child_process";
import { devnetAppEnv } from "./devnet/app-env";
import { startDevnet, writeDevnetFile } from "./devnet/start-devnet";

const port = Number(process.env.PORT ?? 3000);
const appUrl = process.env.PUBLIC_ORIGIN ?? `http://localhost:${port}`;

const devnet = await startDevnet({
  appUrl,
  port: Number(process.env.DEVNET_PORT ?? 8545),
  tempoPort: Number(process.env.DEVNET_TEMPO_PORT ?? 8546),
});
await writeDevnetFile(devnet.info, process.env.DEVNET_FILE || undefined);

const next = spawn("npx", ["next", "dev", "--port", String(port)], {
  stdio: "inherit",
  env: {
    ...process.env,
    ...devnetAppEnv(devnet.info, {
      databaseUrl: process.env.DATABASE_URL,
      pgliteDir: process.env.PGLITE_DIR ?? ".data/pglite",
    }),
  },
});

const [first] = devnet.info.accounts;
console.log(`
  Feedback service (devnet)
  ─────────────────────────
  App        ${appUrl}
  x402       ${devnet.info.x402.network} at ${devnet.info.x402.rpcUrl}, USDC ${devnet.info.x402.asset}
  MPP        Tempo chain ${devnet.info.tempo.chainId} at ${devnet.info.tempo.rpcUrl}, USDC.e ${devnet.info.tempo.currency}
  Rewards    paid from ${devnet.info.tempo.payoutAddress}
  Wallets    ${devnet.info.accounts.length} funded test wallets in .devnet/devnet.json (first: ${first?.address})
  Database   ${process.env.DATABASE_URL ? "PostgreSQL (DATABASE_URL)" : `embedded PGlite in ${process.env.PGLITE_DIR ?? ".data/pglite"}`}

  Try it:
    npm run demo                                  pay, register, submit, list, resolve and tip from a test wallet
    curl -i -X POST ${appUrl}/api/namespace/feedback -H 'content-type: application/json' \\
      -d '{"namespace":"acme-app","type":"bug","title":"It broke","description":"Steps to see it break."}'
                                                  see the 402 and its PAYMENT-REQUIRED challenge
`);

let stopping = false;
async function stop(code = 0) {
  if (stopping) return;
  stopping = true;
  next.kill("SIGTERM");
  await devnet.stop();
  process.exit(code);
}
process.on("SIGINT", () => void stop());
process.on("SIGTERM", () => void stop());
next.on("exit", (code) => void stop(code ?? 0));
