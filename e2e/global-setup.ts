import { type ChildProcess, spawn } from "node:child_process";
import { createRequire } from "node:module";
import { freePort } from "../scripts/devnet/anvil";
import { devnetAppEnv } from "../scripts/devnet/app-env";
import { startDevnet } from "../scripts/devnet/start-devnet";

const nextBin = createRequire(import.meta.url).resolve("next/dist/bin/next");

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

type App = { url: string; stop: (signal: NodeJS.Signals) => void };

/** `next start` in its own process group, so stopping it stops next-server itself, not only a launcher. */
async function startApp(port: number, env: Record<string, string>): Promise<App> {
  const app = spawn(process.execPath, [nextBin, "start", "--port", String(port)], {
    detached: true,
    stdio: ["ignore", "inherit", "inherit"],
    env: { ...process.env, NODE_ENV: "production", ...env },
  });
  const stop = (signal: NodeJS.Signals) => {
    try {
      if (app.pid) process.kill(-app.pid, signal);
    } catch {}
  };
  try {
    await waitForApp(`http://localhost:${port}`, app);
  } catch (error) {
    stop("SIGKILL");
    throw error;
  }
  return { url: `http://localhost:${port}`, stop };
}

/**
 * Starts a devnet and the production build on it; tests read both from E2E_DEVNET. On PostgreSQL a
 * second instance shares the database (E2E_SECOND_APP_URL), as two servers behind one origin would.
 */
export default async function globalSetup() {
  const port = await freePort();
  const appUrl = `http://localhost:${port}`;
  const devnet = await startDevnet({ appUrl });
  const env = devnetAppEnv(devnet.info, { databaseUrl: process.env.DATABASE_URL, pgliteDir: "memory://" });
  const apps: App[] = [];
  try {
    apps.push(await startApp(port, env));
    if (process.env.DATABASE_URL) apps.push(await startApp(await freePort(), env));
  } catch (error) {
    for (const app of apps) app.stop("SIGKILL");
    await devnet.stop();
    throw error;
  }
  process.env.E2E_DEVNET = JSON.stringify(devnet.info);
  if (apps[1]) process.env.E2E_SECOND_APP_URL = apps[1].url;
  return async () => {
    for (const app of apps) app.stop("SIGTERM");
    await devnet.stop();
  };
}
