/** The baseline section: `withX402` (baseline/) and mppx's handler (mpp-baseline/), each its own app. */
import { spawnSync } from "node:child_process";
import { cpSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { freePort } from "../devnet/anvil";
import { ROOT } from "./config";
import { now } from "./load";
import { nextServerPid } from "./machine";
import type { MppTarget } from "./mpp";
import { NEXT_BIN, type NextApp, PRODUCTION, startNext } from "./servers";
import type { X402Target } from "./x402";

/**
 * The app copied to a temp dir (in here its build would pick up our instrumentation), our node_modules linked,
 * built with webpack (Turbopack refuses a linked node_modules) and started like ours.
 */
async function startBaselineApp(source: string, env: Record<string, string>, tmp: string) {
  const [dir, port, t0] = [path.join(tmp, path.basename(source)), await freePort(), now()];
  rmSync(dir, { recursive: true, force: true });
  cpSync(path.join(ROOT, source), dir, { recursive: true });
  symlinkSync(path.join(ROOT, "node_modules"), path.join(dir, "node_modules"), "dir");
  // Next resolves "paths" relative to baseUrl only (an absolute target is not found).
  const compiler = `"target": "ES2022", "lib": ["dom", "esnext"], "module": "esnext", "moduleResolution": "bundler", "jsx": "preserve", "strict": true, "skipLibCheck": true, "noEmit": true, "esModuleInterop": true, "isolatedModules": true, "baseUrl": ".", "paths": { "@/*": ["${path.relative(dir, ROOT)}/*"] }`;
  const tsconfig = `{ "compilerOptions": { ${compiler} }, "include": ["**/*.ts", "**/*.tsx"], "exclude": ["node_modules"] }`;
  writeFileSync(path.join(dir, "tsconfig.json"), tsconfig);
  const options = { cwd: dir, encoding: "utf8", env: { ...process.env, ...PRODUCTION } } as const;
  const build = spawnSync(process.execPath, [NEXT_BIN, "build", "--webpack", dir], options);
  if (build.status !== 0)
    throw new Error(`${source}: next build failed:\n${`${build.stdout}${build.stderr}`.slice(-3000)}`);
  console.log(`  ${source} built in ${Math.round((now() - t0) / 1000)} s (next build --webpack, ${dir})`);
  return { dir, port, app: await startNext(dir, port, env, "/api/feedback") };
}

/** The `withX402` baseline, settling from `key`; a restart starts its build as a fresh process. */
export async function x402Baseline(env: Record<string, string>, key: string, tmp: string) {
  const ownEnv = { ...env, X402_FACILITATOR_PRIVATE_KEY: key };
  const { dir, port, app: first } = await startBaselineApp("scripts/bench/baseline", ownEnv, tmp);
  let app: NextApp = first;
  const restart = async () => {
    await app.stop();
    app = await startNext(dir, port, ownEnv, "/api/feedback");
    target.pid = nextServerPid(app.pid);
  };
  const [url, pid] = [`${app.url}/api/feedback`, nextServerPid(app.pid)];
  const target: X402Target = { key: "baseline", url, label: "baseline x402", pid, restart };
  return { target, ping: { url: `${app.url}/api/ping`, pid }, stop: () => app.stop() };
}

/** mppx's own Next.js handler, with its in-memory store. */
export async function mppBaseline(env: Record<string, string>, tmp: string) {
  const { app } = await startBaselineApp("scripts/bench/mpp-baseline", env, tmp);
  const [url, pid] = [`${app.url}/api/feedback`, nextServerPid(app.pid)];
  const target: MppTarget = { key: "mppBaseline", url, label: "mppx handler", pid };
  return { target, stop: () => app.stop() };
}
