import { type ChildProcess, spawn } from "node:child_process";
import { createRequire } from "node:module";
import { createServer } from "node:net";
import { devnetAppEnv } from "../lib/devnet/app-env";
import { startDevnet } from "../lib/devnet/start-devnet";

const nextBin = createRequire(import.meta.url).resolve("next/dist/bin/next");

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on("error", reject);
  });
}

async function waitForApp(url: string, app: ChildProcess, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (app.exitCode !== null) throw new Error(`next start exited with code ${app.exitCode}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {}
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`the app did not answer at ${url} within ${timeoutMs} ms`);
}

/** Starts a devnet and the production build on it; tests read both from E2E_DEVNET. */
export default async function globalSetup() {
  const port = await freePort();
  const appUrl = `http://localhost:${port}`;
  const devnet = await startDevnet({ appUrl });
  // Its own process group, so teardown stops next-server itself and not only a launcher.
  const app = spawn(process.execPath, [nextBin, "start", "--port", String(port)], {
    detached: true,
    stdio: ["ignore", "inherit", "inherit"],
    env: {
      ...process.env,
      NODE_ENV: "production",
      ...devnetAppEnv(devnet.info, { databaseUrl: process.env.DATABASE_URL, pgliteDir: "memory://" }),
    },
  });
  const stopApp = (signal: NodeJS.Signals) => {
    try {
      if (app.pid) process.kill(-app.pid, signal);
    } catch {}
  };
  try {
    await waitForApp(appUrl, app);
  } catch (error) {
    stopApp("SIGKILL");
    await devnet.stop();
    throw error;
  }
  process.env.E2E_DEVNET = JSON.stringify(devnet.info);
  return async () => {
    stopApp("SIGTERM");
    await devnet.stop();
  };
}
