/**
 * `npm test`: every test, in the order a failure is cheapest to read: unit tests (no chain) beside lint and
 * types; integration and route tests on local chains beside the production build; then Playwright over HTTP
 * (api), in Chromium (ui) and under faults (chaos), and the browser journey on `npm run dev`. On the embedded
 * database; with DATABASE_URL set, all of it on that PostgreSQL.
 *
 * `npm test -- --with-postgres <url>` (CI) runs it on the embedded database and also runs every suite whose
 * answer depends on the database (unit, integration, Playwright api and chaos) on the PostgreSQL at <url>,
 * built once; the browser suites run once, on the embedded database (docs/development.md says why). Any
 * other argument goes to Playwright (and leaves out the dev-server journey).
 */
import { spawn } from "node:child_process";
import { cpSync, createWriteStream, mkdirSync, readFileSync, rmSync, type WriteStream } from "node:fs";
import path from "node:path";

type Run = { command: string; args: string[] };
/** One step of a phase: its commands one after another, stopping at the first that fails. */
type Step = { label: string; runs: Run[]; env?: Record<string, string | undefined> };
type Lane = { name: string; env: Record<string, string | undefined> };

const took: string[] = [];
const seconds = (since: number) => `${Math.round((performance.now() - since) / 1000)} s`;
// Playwright empties test-results/ when it starts: the logs of steps run side by side go beside it.
const LOGS = "test-logs";
const npx = (...args: string[]): Run => ({ command: "npx", args });
const describe = (step: Step) =>
  `${step.label}: ${step.runs.map((r) => [r.command, ...r.args].join(" ")).join(" && ")}`;

function fail(label: string, code: number | string | null): never {
  console.error(`\n✖ ${label} failed (exit ${code}) after ${took.join(", ")}`);
  process.exit(typeof code === "number" && code > 0 ? code : 1);
}

/** Runs one command, its output to the terminal, or into `out` (then FORCE_COLOR keeps the colours). */
function runOne(run: Run, env: Step["env"], out?: WriteStream): Promise<number | null> {
  return new Promise((resolve) => {
    const child = spawn(run.command, run.args, {
      stdio: out ? ["ignore", "pipe", "pipe"] : "inherit",
      env: { ...process.env, ...(out ? { FORCE_COLOR: process.env.FORCE_COLOR ?? "1" } : {}), ...env },
    });
    child.stdout?.pipe(out!, { end: false });
    child.stderr?.pipe(out!, { end: false });
    child.on("exit", (code, signal) => resolve(code ?? (signal ? 1 : null)));
  });
}

/** Runs a step's commands in turn; its output to the terminal, or to a log printed whole once it ends. */
async function runStep(step: Step, logged: boolean): Promise<number | null> {
  let out: WriteStream | undefined;
  let file = "";
  if (logged) {
    mkdirSync(LOGS, { recursive: true });
    file = path.join(LOGS, `${step.label.replace(/[^a-z0-9]+/gi, "-")}.log`);
    out = createWriteStream(file);
  }
  let code: number | null = 0;
  for (const run of step.runs) {
    code = await runOne(run, step.env, out);
    if (code !== 0) break;
  }
  if (out) {
    await new Promise<void>((resolve) => out.end(() => resolve()));
    console.log(`\n── ${step.label} ──\n${readFileSync(file, "utf8")}`);
  }
  return code;
}

/**
 * One phase: its steps one after another when it has one, side by side when it has several (they wait on
 * chains and timeouts more than they use the two cores), each printed whole so none interleave. Stops the
 * run at the first failure.
 */
async function phase(label: string, steps: Step[]) {
  console.log(`\n▶ ${label}: ${steps.map(describe).join(" ‖ ")}`);
  const started = performance.now();
  const ended: string[] = [];
  const codes = await Promise.all(
    steps.map(async (step) => {
      const code = await runStep(step, steps.length > 1);
      ended.push(`${step.label} ${seconds(started)}`);
      return code;
    }),
  );
  took.push(`${label}: ${seconds(started)}${steps.length > 1 ? ` (${ended.join(", ")})` : ""}`);
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

/**
 * What runs on one lane only: what no lane's database can change. Unit tests touch a database only in files
 * named `*.db.test.ts` (testing/db-files-named.ts fails a unit file that opens one under another name), so a
 * further lane runs those alone. These integration files run the same whatever the lane: the embedded
 * database's own tools (backup, restore's refusals, the move to PostgreSQL, which makes a database of its
 * own) on the first lane, whose database they are; the devnet, the sender and the ownership proof, which
 * touch no database, on the last, so the two lanes' integration runs end together.
 */
const UNIT_ON_EVERY_LANE = ".db.test.ts";
const INTEGRATION_ON_FIRST_LANE = ["scripts/db/**"];
const INTEGRATION_ON_LAST_LANE = [
  "scripts/devnet/**",
  "scripts/ownership-proof.integration.test.ts",
  "lib/chain/sender.integration.test.ts",
];

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
  `Database: ${lanes.map((l) => (l.name === "embedded" ? "embedded PGlite" : "PostgreSQL")).join(" and ")}`,
);
const total = performance.now();
await phase("unit tests, lint and types", [
  ...lanes.map((lane, i) => ({
    label: `unit${on(lane)}`,
    runs: [npx("vitest", "run", "--project", "unit", ...(i > 0 ? [UNIT_ON_EVERY_LANE] : []))],
    env: lane.env,
  })),
  // The layers, format and "nothing unused", then the types, Next's route types among them (`next typegen`
  // writes them as the build would, which then need not check them again).
  {
    label: "lint and types",
    runs: [
      { command: "npm", args: ["run", "-s", "lint"] },
      { command: "npm", args: ["run", "-s", "typecheck"] },
    ],
  },
]);
await phase("integration tests and the production build", [
  ...lanes.map((lane, i) => ({
    label: `integration${on(lane)}`,
    runs: [
      npx(
        "vitest",
        "run",
        "--project",
        "integration",
        ...[
          ...(i > 0 ? INTEGRATION_ON_FIRST_LANE : []),
          ...(i < lanes.length - 1 ? INTEGRATION_ON_LAST_LANE : []),
        ].flatMap((glob) => ["--exclude", glob]),
      ),
    ],
    env: lane.env,
  })),
  // The types were checked in the phase before (scripts/test.ts stops at its failure): not again.
  { label: "production build", runs: [npx("next", "build")], env: { BUILD_TYPES_CHECKED: "1" } },
]);
// The end-to-end suites serve a copy of the build (its compiler's cache left out), so the deploy walk-through
// can build where an operator does, in .next, on this build's cache: a few seconds of compiling instead of a
// whole build's, since that cache serves only the directory it was built in (e2e/chaos/walkthrough.spec.ts).
const E2E_DIST = ".next-e2e";
rmSync(E2E_DIST, { recursive: true, force: true });
cpSync(".next", E2E_DIST, { recursive: true, filter: (from) => from !== path.join(".next", "cache") });
// One build for every lane. The browser suites run once (the routes they drive are the api project's, which
// runs on every lane): the ui project on the first lane, and the journey on `npm run dev` after the last
// lane's run, whose Playwright run is the shorter (no browser), unless the run was narrowed to some projects.
// That journey runs on a database of its own, the embedded one `npm run dev` gives, whichever lane it
// follows. Lanes run side by side, so each keeps its artifacts apart.
const devJourney =
  playwrightArgs.length === 0 ? [npx("playwright", "test", "-c", "playwright.dev.config.ts")] : [];
await phase(
  "end-to-end tests",
  lanes.map((lane, i) => ({
    label: `e2e${on(lane)}`,
    runs: [npx("playwright", "test", ...playwrightArgs), ...(i === lanes.length - 1 ? devJourney : [])],
    // The deploy walk-through builds again, from the same tree: its types were checked too.
    env:
      i === 0
        ? { ...lane.env, BUILD_TYPES_CHECKED: "1", NEXT_DIST_DIR: E2E_DIST }
        : {
            ...lane.env,
            NEXT_DIST_DIR: E2E_DIST,
            BUILD_TYPES_CHECKED: "1",
            E2E_BROWSER: "off",
            E2E_OUTPUT_DIR: `test-results-${lane.name}`,
            PLAYWRIGHT_HTML_OUTPUT_DIR: `playwright-report-${lane.name}`,
          },
  })),
);
console.log(`\n✔ every phase passed in ${seconds(total)}: ${took.join(", ")}`);
