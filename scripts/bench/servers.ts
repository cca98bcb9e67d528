/** The processes under test: our production build, `next start`, in-process children. */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { CPU_PROF, DIST_DIR, ROOT, SKIP_BUILD } from "./config";
import { now, sleep } from "./load";

export const NEXT_BIN = createRequire(import.meta.url).resolve("next/dist/bin/next");
export const PRODUCTION = { NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1" } as const;
export type NextApp = { url: string; pid: number; stop: () => Promise<void> };

/** `next build` into DIST_DIR; tsconfig.json goes back as it was (Next adds the dist dir's types to it). */
export function buildApp() {
  if (SKIP_BUILD && existsSync(path.join(ROOT, DIST_DIR, "BUILD_ID"))) return { reused: true, ms: 0 };
  const [tsconfig, t0] = [path.join(ROOT, "tsconfig.json"), now()];
  const before = readFileSync(tsconfig, "utf8");
  const env = { ...process.env, ...PRODUCTION, NEXT_DIST_DIR: DIST_DIR };
  const { status } = spawnSync(process.execPath, [NEXT_BIN, "build"], { cwd: ROOT, stdio: "inherit", env });
  if (readFileSync(tsconfig, "utf8") !== before) writeFileSync(tsconfig, before);
  if (status !== 0) throw new Error(`next build failed (exit ${status})`);
  return { reused: false, ms: Math.round(now() - t0) };
}

/** `next start` in its own process group (as e2e/global-setup.ts does), once it answers `probePath`. */
export async function startNext(dir: string, port: number, env: Record<string, string>, probePath = "/") {
  const prof = CPU_PROF ? ["--cpu-prof", `--cpu-prof-dir=${CPU_PROF}`] : [];
  const args = [...prof, NEXT_BIN, "start", dir, "--port", String(port), "--hostname", "127.0.0.1"];
  const options = {
    cwd: dir,
    detached: true,
    env: { ...process.env, NODE_ENV: "production" as const, ...env },
  };
  const app = spawn(process.execPath, args, { ...options, stdio: ["ignore", "pipe", "pipe"] });
  const tail: string[] = [];
  for (const out of [app.stdout, app.stderr])
    out.on("data", (chunk: Buffer) => tail.push(String(chunk)) > 200 && tail.shift());
  const pid = app.pid!;
  const kill = (signal: NodeJS.Signals) => {
    try {
      process.kill(-pid, signal);
    } catch {}
  };
  const stop = async () => {
    if (app.exitCode !== null) return;
    kill("SIGTERM");
    for (const end = Date.now() + 10_000; app.exitCode === null && Date.now() < end; ) await sleep(100);
    kill("SIGKILL");
  };
  const url = `http://127.0.0.1:${port}`;
  for (const end = Date.now() + 120_000; ; await sleep(250)) {
    if (app.exitCode !== null)
      throw new Error(`next start (${dir}) exited with ${app.exitCode}:\n${tail.join("").slice(-3000)}`);
    const res = await fetch(`${url}${probePath}`).catch(() => null);
    if (res && (await res.arrayBuffer().catch(() => null)) && res.status < 500)
      return { url, pid, stop } satisfies NextApp;
    if (Date.now() > end) {
      kill("SIGKILL");
      throw new Error(`next start (${dir}) did not answer within 120 s`);
    }
  }
}

/** Runs scripts/bench/<script> in a child node with the react-server condition (for lib); its JSON. */
type Env = Record<string, string>;
export function runInProcessChild<T>(script: string, args: string[], env: Env, tmp: string) {
  const out = path.join(tmp, `${args[0] ?? script}.json`);
  const child = spawn(
    process.execPath,
    ["--conditions=react-server", "--import", "tsx", `scripts/bench/${script}`, ...args, out],
    {
      cwd: ROOT,
      stdio: ["ignore", "inherit", "inherit"],
      env: { ...process.env, NODE_ENV: "production", ...env },
    },
  );
  return new Promise<T>((resolve, reject) => {
    child.on("error", reject);
    const failed = (code: number | null) => new Error(`${script} ${args[0] ?? ""} exited with ${code}`);
    child.on("exit", (code) =>
      code === 0 ? resolve(JSON.parse(readFileSync(out, "utf8"))) : reject(failed(code)),
    );
  });
}
