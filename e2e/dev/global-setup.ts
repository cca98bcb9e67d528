import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { freePort } from "../../scripts/devnet/anvil";

/**
 * `npm run dev`, as a newcomer runs it (next dev, the devnet, the embedded database), moved to free ports and
 * a scratch directory so it can run beside the other suites; tests read its chains from E2E_DEVNET.
 */
export default async function globalSetup() {
  const scratch = await mkdtemp(path.join(tmpdir(), "feedback-dev-"));
  const [port, devnetPort, tempoPort] = [await freePort(), await freePort(), await freePort()];
  const file = path.join(scratch, "devnet.json");
  const dev = spawn("npm", ["run", "dev"], {
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: {
      ...process.env,
      PORT: String(port),
      DEVNET_PORT: String(devnetPort),
      DEVNET_TEMPO_PORT: String(tempoPort),
      PGLITE_DIR: path.join(scratch, "pglite"),
      // tsconfig.json lists this build directory's types, so next dev leaves it unchanged.
      NEXT_DIST_DIR: ".next-ui",
      DEVNET_FILE: file,
      DATABASE_URL: "",
    },
  });
  let output = "";
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString("utf8")).slice(-20_000);
  };
  dev.stdout.on("data", keep);
  dev.stderr.on("data", keep);
  const stop = async () => {
    try {
      if (dev.pid) process.kill(-dev.pid, "SIGTERM");
    } catch {}
    await new Promise((r) => setTimeout(r, 2_000));
    try {
      if (dev.pid) process.kill(-dev.pid, "SIGKILL");
    } catch {}
    await rm(scratch, { recursive: true, force: true });
  };
  // The devnet first (its file), then next dev compiling the landing page on its first request.
  const deadline = Date.now() + 240_000;
  const url = `http://localhost:${port}/`;
  for (;;) {
    if (dev.exitCode !== null) {
      await stop();
      throw new Error(`npm run dev exited (${dev.exitCode}):\n${output}`);
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`npm run dev did not serve ${url} within 240 s:\n${output}`);
    }
    if (existsSync(file)) {
      const ok = await fetch(url, { signal: AbortSignal.timeout(60_000) }).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) break;
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  process.env.E2E_DEVNET = readFileSync(file, "utf8");
  return stop;
}
