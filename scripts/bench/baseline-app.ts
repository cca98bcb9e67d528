/**
 * A baseline as its own minimal Next.js app: scripts/bench/baseline (x402's `withX402`) or
 * scripts/bench/mpp-baseline (mppx's Next.js handler), one route around an in-memory store, copied to a
 * temp project with this repository's node_modules linked in, built, and run with `next start` like
 * ours. Built with webpack: Turbopack refuses a node_modules linked from outside its project root, and
 * inside this repository the build would pick up our own instrumentation.
 */
import { spawnSync } from "node:child_process";
import { cpSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { NEXT_BIN, type NextApp, now, ROOT, startNext } from "./common";

export type BaselineSource = "scripts/bench/baseline" | "scripts/bench/mpp-baseline";

// Next resolves "paths" relative to baseUrl only (an absolute target is not found).
const baselineTsconfig = (dir: string) => ({
  compilerOptions: {
    target: "ES2022",
    lib: ["dom", "esnext"],
    module: "esnext",
    moduleResolution: "bundler",
    jsx: "preserve",
    strict: true,
    skipLibCheck: true,
    noEmit: true,
    esModuleInterop: true,
    isolatedModules: true,
    baseUrl: ".",
    paths: { "@/*": [`${path.relative(dir, ROOT)}/*`] },
  },
  include: ["**/*.ts", "**/*.tsx"],
  exclude: ["node_modules"],
});

/**
 * Copies `source` to `<tmp>/<name>`, builds it (`next build --webpack`) and starts it on `port` with
 * `env`, resolving once GET /api/feedback answers.
 */
export async function startBaselineApp(options: {
  source: BaselineSource;
  name: string;
  port: number;
  env: Record<string, string>;
  tmp: string;
}): Promise<NextApp & { startAgain: () => Promise<NextApp> }> {
  const { source, name, port, env, tmp } = options;
  const dir = path.join(tmp, name);
  rmSync(dir, { recursive: true, force: true });
  cpSync(path.join(ROOT, source), dir, { recursive: true });
  symlinkSync(path.join(ROOT, "node_modules"), path.join(dir, "node_modules"), "dir");
  // A baseline shares a few helpers with us (lib/chain, lib/money.ts): "@/" points at this repository.
  writeFileSync(path.join(dir, "tsconfig.json"), JSON.stringify(baselineTsconfig(dir), null, 2));
  const t0 = now();
  const build = spawnSync(process.execPath, [NEXT_BIN, "build", "--webpack", dir], {
    cwd: dir,
    encoding: "utf8",
    env: { ...process.env, NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1" },
  });
  if (build.status !== 0) {
    throw new Error(`${name}: next build failed:\n${`${build.stdout}${build.stderr}`.slice(-3000)}`);
  }
  console.log(`  ${name} built in ${Math.round((now() - t0) / 1000)} s (next build --webpack, ${dir})`);
  // Once built, the same app starts again as a fresh process (its nonce cache and clients new).
  const startAgain = () => startNext({ dir, port, env, probePath: "/api/feedback" });
  return { ...(await startAgain()), startAgain };
}
