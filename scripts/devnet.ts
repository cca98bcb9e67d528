/**
 * `npm run devnet`: the local chains alone, for a production build to run against (docs/deploy.md).
 * Writes .devnet/devnet.json and .devnet/production.env, the app's environment on these chains.
 */
import { writeFile } from "node:fs/promises";
import { devnetAppEnv } from "./devnet/app-env";
import { startDevnet, writeDevnetFile } from "./devnet/start-devnet";

const appUrl = process.env.PUBLIC_ORIGIN ?? "http://localhost:3000";
const devnet = await startDevnet({
  appUrl,
  port: Number(process.env.DEVNET_PORT ?? 8545),
  tempoPort: Number(process.env.DEVNET_TEMPO_PORT ?? 8546),
});
await writeDevnetFile(devnet.info);
// Single-quoted for a shell's `set -a; . .devnet/production.env`: no value holds a quote.
const env = devnetAppEnv(devnet.info);
const lines = Object.entries(env).map(([key, value]) => `${key}='${value}'`);
await writeFile(".devnet/production.env", `${lines.join("\n")}\n`, { mode: 0o600 });
console.log(
  `Devnet up for ${appUrl}: .devnet/devnet.json and .devnet/production.env written. Ctrl-C stops it.`,
);

async function stop() {
  await devnet.stop();
  process.exit(0);
}
process.on("SIGINT", () => void stop());
process.on("SIGTERM", () => void stop());
