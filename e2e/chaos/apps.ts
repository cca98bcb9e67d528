import { type ChildProcess, spawn } from "node:child_process";
import { createRequire } from "node:module";

const nextBin = createRequire(import.meta.url).resolve("next/dist/bin/next");

/** One `next start` instance that the suite can kill with SIGKILL and start again on the same port. */
export type AppInstance = {
  url: string;
  /** Whether it is up and answering. */
  alive(): boolean;
  start(): Promise<void>;
  /** SIGKILL to the whole process group: no shutdown, no cleanup, as a crash. */
  kill(): Promise<void>;
  /** SIGTERM, waiting for the exit. */
  stop(): Promise<void>;
};

async function waitUntilUp(url: string, child: ChildProcess, timeoutMs = 90_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`next start exited (${child.exitCode ?? child.signalCode})`);
    }
    try {
      if ((await fetch(`${url}/openapi.json`, { signal: AbortSignal.timeout(5_000) })).ok) return;
    } catch {}
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${url} did not come up within ${timeoutMs} ms`);
}

/** A production server of this checkout on `port`, with `env` on top of the process's own. */
export function appInstance(
  port: number,
  env: Record<string, string>,
  log: (line: string) => void,
): AppInstance {
  const url = `http://localhost:${port}`;
  let child: ChildProcess | undefined;
  let up = false;
  const exited = () =>
    new Promise<void>((resolve) => {
      if (!child || child.exitCode !== null || child.signalCode !== null) resolve();
      else child.once("exit", () => resolve());
    });
  const signal = (name: NodeJS.Signals) => {
    try {
      if (child?.pid) process.kill(-child.pid, name);
    } catch {}
  };
  // Never outlive the suite: a leftover server would hold a core for as long as the machine runs.
  process.once("exit", () => signal("SIGKILL"));
  return {
    url,
    alive: () => up,
    async start() {
      child = spawn(process.execPath, [nextBin, "start", "--port", String(port)], {
        detached: true,
        stdio: ["ignore", "pipe", "pipe"],
        env: { ...process.env, NODE_ENV: "production", ...env },
      });
      const forward = (chunk: Buffer) => {
        for (const line of chunk.toString("utf8").split("\n")) if (line.trim()) log(`[app ${port}] ${line}`);
      };
      child.stdout?.on("data", forward);
      child.stderr?.on("data", forward);
      child.once("exit", () => {
        up = false;
      });
      await waitUntilUp(url, child);
      up = true;
    },
    async kill() {
      up = false;
      signal("SIGKILL");
      await exited();
    },
    async stop() {
      up = false;
      signal("SIGTERM");
      await Promise.race([exited(), new Promise((r) => setTimeout(r, 10_000))]);
      // Whatever is left of the group (a server the launcher forked) goes too.
      signal("SIGKILL");
      await exited();
    },
  };
}
