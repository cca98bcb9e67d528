import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

/** `npm run worker` as a child the suite can kill with SIGKILL, stop with SIGTERM and start again. */
export type WorkerProcess = {
  start(): Promise<void>;
  /** SIGKILL: no shutdown, as a crash. */
  kill(): Promise<void>;
  /** SIGTERM; resolves with the exit code once it exited (null if it had to be killed). */
  stop(timeoutMs?: number): Promise<number | null>;
  /** Lines it wrote since its last start. */
  lines(): string[];
};

/** The background worker of this checkout, run the way `npm run worker` runs it, with `env` on top. */
export function workerProcess(env: Record<string, string>, log: (line: string) => void): WorkerProcess {
  let child: ChildProcess | undefined;
  let output: string[] = [];
  const exited = () =>
    new Promise<void>((resolve) => {
      if (!child || child.exitCode !== null || child.signalCode !== null) resolve();
      else child.once("exit", () => resolve());
    });
  // Never outlive the suite: a leftover worker would keep polling a dropped database.
  process.once("exit", () => child?.kill("SIGKILL"));
  return {
    async start() {
      output = [];
      child = spawn(process.execPath, ["--conditions=react-server", "--import", "tsx", "scripts/worker.ts"], {
        cwd: ROOT,
        stdio: ["ignore", "pipe", "pipe"],
        env: { ...process.env, NODE_ENV: "production", ...env },
      });
      const forward = (chunk: Buffer) => {
        for (const line of chunk.toString("utf8").split("\n")) {
          if (!line.trim()) continue;
          output.push(line);
          log(`[worker] ${line}`);
        }
      };
      child.stdout?.on("data", forward);
      child.stderr?.on("data", forward);
      const deadline = Date.now() + 60_000;
      while (!output.some((l) => l.includes("[worker] started"))) {
        if (child.exitCode !== null)
          throw new Error(`the worker exited (${child.exitCode}): ${output.join("\n")}`);
        if (Date.now() > deadline) throw new Error("the worker did not start within 60 s");
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    async kill() {
      child?.kill("SIGKILL");
      await exited();
    },
    async stop(timeoutMs = 30_000) {
      if (!child) return null;
      child.kill("SIGTERM");
      await Promise.race([exited(), new Promise((r) => setTimeout(r, timeoutMs))]);
      if (child.exitCode === null && child.signalCode === null) {
        child.kill("SIGKILL");
        await exited();
        return null;
      }
      return child.exitCode;
    },
    lines: () => output,
  };
}
