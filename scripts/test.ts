/**
 * `npm test`: every test, in the order a failure is cheapest to read: unit (no chain), integration and route
 * tests on a local chain beside the production build, then Playwright over HTTP (api), in Chromium (ui) and
 * under faults (chaos). On the embedded database; with DATABASE_URL set, all of it on that PostgreSQL.
 *
 * `npm test -- --with-postgres <url>` (CI) runs it on the embedded database and also runs every suite whose
 * answer depends on the database (unit, integration, Playwright api and chaos) on the PostgreSQL at <url>,
 * built once; the browser suite runs once, on the embedded database (docs/development.md says why). Any
 * other argument goes to Playwright.
 */
import { spawn } from "node:child_process";
import { createWriteStream, mkdirSync, readFileSync } from "node:fs";
import path from "node:path";

type Step = { label: string; command: string; args: string[]; env?: Record<string, string | undefined> };
type Lane = { name: string; env: Record<string, string | undefined> };

const took: string[] = [];
const seconds = (since: number) => `${Math.round((performance.now() - since) / 1000)} s`;
// Playwright empties test-results/ when it starts: the logs of steps run side by side go beside it.
const LOGS = "test-logs";

function fail(label: string, code: number | string | null): never {
  console.error(`\n✖ ${label} failed (exit ${code}) after ${took.join(", ")}`);
  process.exit(typeof code === "number" && code > 0 ? code : 1);
}

/** Runs one step with the terminal as its output. */
function runAttached(step: Step): Promise<number | null> {
  return new Promise((resolve) => {
    const child = spawn(step.command, step.args, { stdio: "inherit", env: { ...process.env, ...step.env } });
    child.on("exit", (code, signal) => resolve(code ?? (signal ? 1 : null)));
  });
}

/** Runs one step into a log file, printed whole once it ends, so steps side by side never interleave. */
function runLogged(step: Step): Promise<number | null> {
  mkdirSync(LOGS, { recursive: true });
  const file = path.join(LOGS, `${step.label.replace(/[^a-z0-9]+/gi, "-")}.log`);
  const out = createWriteStream(file);
  return new Promise((resolve) => {
    const child = spawn(step.command, step.args, {
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, FORCE_COLOR: process.env.FORCE_COLOR ?? "1", ...step.env },
    });
    child.stdout.pipe(out, { end: false });
    child.stderr.pipe(out, { end: false });
    child.on("exit", (code, signal) => {
      out.end(() => {
        console.log(`\n── ${step.label} ──\n${readFileSync(file, "utf8")}`);
        resolve(code ?? (signal ? 1 : null));
      });
    });
  });
}

/**
 * One phase: its steps one after another when it has one, side by side when it has several (they wait on
 * chains and timeouts more than they use the two cores). Stops the run at the first failure.
 */
async function phase(label: string, steps: Step[]) {
  console.log(
    `\n▶ ${label}: ${steps.map((s) => `${s.label}: ${s.command} ${s.args.join(" ")}`).join(" ‖ ")}`,
  );
  const started = performance.now();
  if (steps.length === 1) {
    const code = await runAttached(steps[0]!);
    took.push(`${label}: ${seconds(started)}`);
    if (code !== 0) fail(label, code);
    return;
  }
  const ended: string[] = [];
  const codes = await Promise.all(
    steps.map(async (step) => {
      const code = await runLogged(step);
      ended.push(`${step.label} ${seconds(started)}`);
      return code;
    }),
  );
  took.push(`${label}: ${seconds(started)} (${ended.join(", ")})`);
  const failed = steps.findIndex((_, i) => codes[i] !== 0);
  if (failed >= 0) fail(steps[failed]!.label, codes[failed]!);
}

function parseArgs(argv: string[]) {
  const rest: string[] = [];
  let postgres: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--with-postgres") postgres = argv[++i];
    else if (arg.startsWith("--with-postgres=")) postgres = arg.slice("--with-postgres=".length);
    else rest.push(arg);
  }
  if (argv.includes("--with-postgres") && !postgres) {
    console.error(
      "--with-postgres needs a PostgreSQL URL, such as postgres://postgres@127.0.0.1:5432/feedback_ci",
    );
    process.exit(2);
  }
  return { postgres, playwrightArgs: rest };
}

const { postgres, playwrightArgs } = parseArgs(process.argv.slice(2));
const lanes: Lane[] = postgres
  ? [
      { name: "embedded", env: { DATABASE_URL: undefined } },
      { name: "PostgreSQL", env: { DATABASE_URL: postgres } },
    ]
  : [{ name: process.env.DATABASE_URL ? "PostgreSQL" : "embedded", env: {} }];
const many = lanes.length > 1;
const on = (lane: Lane) => (many ? ` on ${lane.name}` : "");

console.log(
  `Database: ${lanes.map((l) => (l.name === "embedded" ? "embedded PGlite" : `PostgreSQL`)).join(" and ")}`,
);
const total = performance.now();
await phase("unit tests, lint and types", [
  ...lanes.map((lane) => ({
    label: `unit${on(lane)}`,
    command: "npx",
    args: ["vitest", "run", "--project", "unit"],
    env: lane.env,
  })),
  // The layers, format and "nothing unused", then the types (before the build writes .next/types).
  { label: "lint and types", command: "sh", args: ["-c", "npm run -s lint && npm run -s typecheck"] },
]);
await phase("integration tests and the production build", [
  ...lanes.map((lane) => ({
    label: `integration${on(lane)}`,
    command: "npx",
    args: ["vitest", "run", "--project", "integration"],
    env: lane.env,
  })),
  { label: "production build", command: "npx", args: ["next", "build"] },
]);
// One build for every lane; the browser suite on the first lane only (the routes it drives are the api
// project's, which runs on every lane). Lanes run side by side, so each keeps its artifacts apart.
await phase(
  "end-to-end tests",
  lanes.map((lane, i) => ({
    label: `e2e${on(lane)}`,
    command: "npx",
    args: ["playwright", "test", ...playwrightArgs],
    env:
      i === 0
        ? lane.env
        : {
            ...lane.env,
            E2E_BROWSER: "off",
            E2E_OUTPUT_DIR: `test-results-${lane.name}`,
            PLAYWRIGHT_HTML_OUTPUT_DIR: `playwright-report-${lane.name}`,
          },
  })),
);
console.log(`\n✔ every phase passed in ${seconds(total)}: ${took.join(", ")}`);
