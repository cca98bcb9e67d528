import { spawn } from "node:child_process";
import { cpSync, existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { fileURLToPath } from "node:url";
import { expect, test } from "@playwright/test";
import { nginxBinary } from "./nginx";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const DOC = "docs/deploy.md";
const SECTION = "### The whole production path on the devnet's chains";

/** The fixed ports the walk-through uses: the instances, the facilitator, nginx and the devnet's chains. */
const PORTS = [3000, 3001, 4022, 8080, 8545, 8546];

/** Whether nothing listens on `port` on 127.0.0.1 (a developer's `npm run dev` holds 3000 and 8545). */
const free = (port: number) =>
  new Promise<boolean>((resolve) => {
    const probe = createServer()
      .once("error", () => resolve(false))
      .listen(port, "127.0.0.1", () => probe.close(() => resolve(true)));
  });

/** The walk-through's ports something listens on. */
const busyPorts = async () =>
  (await Promise.all(PORTS.map(async (p) => ((await free(p)) ? [] : [p])))).flat();

/** SIGKILL to every process of the session `sid` leads (its jobs run in process groups of their own). */
function killSession(sid: number) {
  for (const pid of readdirSync("/proc").filter((name) => /^\d+$/.test(name))) {
    try {
      // pid (comm) state ppid pgrp session …: comm may hold spaces and parentheses, so read after its last ")".
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      const session = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[3]);
      if (session === sid) process.kill(Number(pid), "SIGKILL");
    } catch {}
  }
}

/** The walk-through's commands, exactly as docs/deploy.md shows them, and the two that stop it all. */
function walkthrough(): { run: string; stop: string[] } {
  const text = readFileSync(`${ROOT}/${DOC}`, "utf8");
  const section = text.slice(text.indexOf(SECTION));
  const run = /```sh\n([\s\S]*?)```/.exec(section)?.[1];
  const stop = /Stop it\s+all with `([^`]+)` and `([^`]+)`/.exec(section);
  if (!run || !stop) throw new Error(`${DOC} has no walk-through under "${SECTION}"`);
  return { run, stop: [stop[1]!, stop[2]!] };
}

// The production path an operator follows, run as one script from docs/deploy.md's own text: the devnet's
// chains, PostgreSQL, a standalone facilitator, a build, the doctor, two instances bound to 127.0.0.1, the
// worker, nginx from deploy/nginx.conf, and the demo paying through it. A step that fails fails the test.
test("the production walk-through in docs/deploy.md runs as written", async () => {
  test.skip(!process.env.DATABASE_URL, "needs the machine's PostgreSQL, as the walk-through does");
  const nginx = nginxBinary();
  test.skip(!nginx, "needs nginx (Debian's package)");
  test.setTimeout(12 * 60_000);
  const busy = await busyPorts();
  // In CI nothing else may hold them; on a developer's machine a running `npm run dev` does.
  if (!process.env.CI) test.skip(busy.length > 0, `ports ${busy.join(", ")} are in use (npm run dev?)`);
  expect(busy, "ports the walk-through listens on").toEqual([]);
  const { run, stop } = walkthrough();
  // Under `npm test` the other suites serve a copy of the build (NEXT_DIST_DIR), so it builds where an
  // operator does, in .next, on the build already there, as an operator building again would: seconds, since
  // the compiler's cache there serves that directory only. Where the other suites serve .next itself (a
  // Playwright run of its own), its build goes to a copy, which compiles most of the tree again. Nothing else
  // differs from what an operator runs.
  const inPlace = (process.env.NEXT_DIST_DIR || ".next") !== ".next";
  const dist = inPlace ? ".next" : ".next-walkthrough";
  rmSync(`${ROOT}/.nginx`, { recursive: true, force: true });
  if (!inPlace) {
    rmSync(`${ROOT}/${dist}`, { recursive: true, force: true });
    if (existsSync(`${ROOT}/.next`)) cpSync(`${ROOT}/.next`, `${ROOT}/${dist}`, { recursive: true });
  }
  // As in an operator's terminal, each `&` is a job of its own (job control), which `kill %N` stops whole:
  // next-server under `npm start` too. Without it, `kill` would reach the launchers only.
  const script = `set -euo pipefail\nset -m\n${run}\n${stop.join("\n")}\n`;
  const child = spawn("bash", ["-c", script], {
    cwd: ROOT,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, NEXT_DIST_DIR: dist, PATH: `${process.env.PATH}:/usr/sbin`, DATABASE_URL: "" },
  });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk));
  try {
    const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
    expect(code, output.slice(-6_000)).toBe(0);
    // The stop commands stopped it all: nothing listens on the walk-through's ports a few seconds later.
    await expect
      .poll(busyPorts, {
        message: "ports still listened on after the stop commands",
        timeout: 20_000,
      })
      .toEqual([]);
  } finally {
    // Whatever is left, in any job's group, is in the session the script led.
    if (child.pid) killSession(child.pid);
    if (!inPlace) rmSync(`${ROOT}/${dist}`, { recursive: true, force: true });
  }
  // The doctor passed, the demo paid its way through nginx, and no instance listened beyond 127.0.0.1.
  expect(output).toMatch(/^0 error\(s\)/m);
  expect(output).toMatch(/Resolve it with a 0\.1 USD tip[^\n]* → 200/);
  const access = readFileSync(`${ROOT}/.nginx/logs/access.log`, "utf8");
  expect(access).toMatch(/"POST \/api\/namespace\/register HTTP\/1\.1" 200/);
  expect(output).not.toMatch(/- Network:\s+http:\/\/(?!127\.0\.0\.1)[^\s]+:300[01]/);
});
