import { spawn } from "node:child_process";
import { expect, test } from "@playwright/test";
import { freePort } from "../../scripts/devnet/anvil";
import { appInstance } from "./apps";
import { startCluster } from "./cluster";

/** `npm run doctor` as an operator runs it on a host, with `env` as that host's configuration. */
function doctor(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn("npm", ["run", "--silent", "doctor"], {
      env: { ...process.env, ...env, NODE_ENV: "production" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, output }));
  });
}

// Two instances on one database whose MPP_SECRET_KEY differs: every MPP payment whose retry reaches the
// other instance fails. The second says so when it starts, and `npm run doctor` fails naming the variable.
test("an instance whose MPP_SECRET_KEY differs from the running ones says so, and the doctor names it", async () => {
  const serverUrl = process.env.DATABASE_URL;
  test.skip(!serverUrl, "needs DATABASE_URL: one embedded database (PGlite) serves one process");
  test.setTimeout(3 * 60_000);
  const lines: string[] = [];
  const cluster = await startCluster({ serverUrl: serverUrl!, log: (line) => lines.push(line) });
  const other = { ...cluster.appEnv, MPP_SECRET_KEY: `${cluster.appEnv.MPP_SECRET_KEY}-other-host` };
  const stray = appInstance(await freePort(), other, (line) => lines.push(line));
  try {
    await cluster.scale(1);
    expect((await doctor(cluster.appEnv)).output).toMatch(
      /ok {5}shared secrets: MPP_SECRET_KEY and APP_SECRET match/,
    );
    await stray.start();
    expect(lines.join("\n")).toMatch(
      /\[startup\] MPP_SECRET_KEY differs from the one 1 running instance\(s\) use \(web on .+\)/,
    );
    expect(lines.join("\n")).not.toMatch(/\[startup\] APP_SECRET differs/);
    const checked = await doctor(cluster.appEnv);
    expect(checked.code).toBe(1);
    expect(checked.output).toMatch(
      /error {2}shared secrets: MPP_SECRET_KEY differs from web on .+\. Fix: give every instance the same MPP_SECRET_KEY/,
    );
    expect(checked.output).not.toContain(cluster.appEnv.MPP_SECRET_KEY!);
  } finally {
    await stray.stop();
    await cluster.stop();
  }
});
