import { spawn } from "node:child_process";

/** What a command printed and how it ended. */
export type Ran = { code: number | null; stdout: string; stderr: string };

/**
 * Runs a script as `npm run` does (tsx, react-server conditions) in a process of its own, with `env` on
 * top of this process's environment (undefined removes a variable), from `cwd` (this checkout by default),
 * with `stdin` as its standard input (none by default).
 */
export function runScript(
  file: string,
  args: string[],
  env: Record<string, string | undefined>,
  cwd = process.cwd(),
  stdin?: string,
): Promise<Ran> {
  const merged: Record<string, string | undefined> = { ...process.env, ...env };
  for (const [name, value] of Object.entries(merged)) if (value === undefined) delete merged[name];
  const child = spawn(process.execPath, ["--conditions=react-server", "--import", "tsx", file, ...args], {
    cwd,
    env: merged as NodeJS.ProcessEnv,
    stdio: [stdin === undefined ? "ignore" : "pipe", "pipe", "pipe"],
  });
  if (stdin !== undefined) child.stdin?.end(stdin);
  let stdout = "";
  let stderr = "";
  child.stdout?.on("data", (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}
