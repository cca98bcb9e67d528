/**
 * `npm test`: every test, in the order a failure is cheapest to read: unit tests (no chain) beside lint and
 * types; integration and route tests on local chains beside the production build; then Playwright over HTTP
 * (api), in Chromium (ui) and under faults (chaos), and the browser journey on `npm run dev`. On the embedded
 * database; with DATABASE_URL set, all of it on that PostgreSQL.
 *
 * `npm test -- --with-postgres <url>` (CI) runs it on the embedded database and also runs every suite whose
 * answer depends on the database (unit, integration, Playwright api and chaos) on the PostgreSQL at <url>,
 * built once: two lanes side by side, each going on to its next suite as soon as what that needs has passed.
 * The browser suites run once, shared between the lanes (docs/development.md says why). Any other argument
 * goes to Playwright (and leaves out the dev-server journey).
 */
import { spawn } from "node:child_process";
import { cpSync, createWriteStream, mkdirSync, readFileSync, rmSync, type WriteStream } from "node:fs";
import path from "node:path";
import { failureSummary } from "./test-failures";

/** A command, or work done in this process between two commands (copying a build). */
type Run = { command: string; args: string[] } | { name: string; js: () => void };
/** One step: its commands one after another, stopping at the first that fails. */
type Step = { label: string; runs: Run[]; env?: Record<string, string | undefined> };
type Lane = { name: string; env: Record<string, string | undefined> };

const took: string[] = [];
const seconds = (since: number) => `${Math.round((performance.now() - since) / 1000)} s`;
// Playwright empties test-results/ when it starts: the logs of steps run side by side go beside it.
const LOGS = "test-logs";
const npx = (...args: string[]): Run => ({ command: "npx", args });
const commandLine = (step: Step) =>
  `${step.label}: ${step.runs.map((r) => ("js" in r ? r.name : [r.command, ...r.args].join(" "))).join(" && ")}`;

/** Each logged step's log file, so a failure's summary can be repeated at the end of the run. */
const logs = new Map<string, string>();

function fail(label: string, code: number | string | null): never {
  const log = logs.get(label);
  if (log) {
    // Printed again as the run's last lines: the step's whole log may have been printed long before.
    const summary = failureSummary(readFileSync(log, "utf8"));
    console.error(`\n── what failed in ${label} (its whole log: ${log}) ──\n${summary.join("\n")}`);
  }
  console.error(`\n✖ ${label} failed (exit ${code}) after ${took.join(", ")}`);
  process.exit(typeof code === "number" && code > 0 ? code : 1);
}

/** Runs one command, its output to the terminal, or into `out` (then FORCE_COLOR keeps the colours). */
function runOne(run: Run, env: Step["env"], out?: WriteStream): Promise<number | null> {
  if ("js" in run) {
    try {
      run.js();
      return Promise.resolve(0);
    } catch (error) {
      out?.write(`${run.name} failed: ${error instanceof Error ? error.message : String(error)}\n`);
      return Promise.resolve(1);
    }
  }
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

/** Runs a step's commands in turn; their output to the terminal, or to a log printed whole once it ends. */
async function runStep(step: Step, logged: boolean): Promise<number | null> {
  let out: WriteStream | undefined;
  let file = "";
  if (logged) {
    mkdirSync(LOGS, { recursive: true });
    file = path.join(LOGS, `${step.label.replace(/[^a-z0-9]+/gi, "-")}.log`);
    out = createWriteStream(file);
    logs.set(step.label, file);
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

/** A step and the steps it waits for: it starts once each of them has passed. */
type Task = Step & { after?: Task[] };

/**
 * Runs the tasks, each as soon as the ones it waits for have passed, side by side (they wait on chains and
 * timeouts more than they use the two cores), each printed whole when it ends so none interleave. After a
 * failure no task starts; those running end, then the run stops.
 */
async function runTasks(tasks: Task[]) {
  const started = performance.now();
  const runs = new Map<Task, Promise<boolean>>();
  const unfinished = new Set(tasks);
  let failed: { label: string; code: number | null } | undefined;
  const run = (task: Task): Promise<boolean> => {
    let running = runs.get(task);
    if (!running) {
      running = (async () => {
        const passed = await Promise.all((task.after ?? []).map(run));
        if (!passed.every(Boolean) || failed) {
          unfinished.delete(task);
          return false;
        }
        console.log(`\n▶ ${seconds(started)}: ${commandLine(task)}`);
        const begun = performance.now();
        // The last task left prints as it goes; the others to their logs, so none interleave.
        const code = await runStep(task, !(unfinished.size === 1 && unfinished.has(task)));
        unfinished.delete(task);
        took.push(`${task.label} ${seconds(begun)} (ended at ${seconds(started)})`);
        if (code !== 0) failed ??= { label: task.label, code };
        return code === 0;
      })();
      runs.set(task, running);
    }
    return running;
  };
  await Promise.all(tasks.map(run));
  if (failed) fail(failed.label, failed.code);
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
 * further lane runs those alone. These integration files run the same whatever the lane, so they run on the
 * last one, whose browser share is the smaller: the embedded database's own tools (backup, restore's
 * refusals, the move to PostgreSQL), which name their databases themselves, and the devnet, the sender and
 * the ownership proof, which touch no database. The lanes' integration runs then end about together.
 */
const UNIT_ON_EVERY_LANE = ".db.test.ts";
const INTEGRATION_ON_LAST_LANE = [
  "scripts/db/**",
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
// The layers, format and "nothing unused", then the types, Next's route types among them (`next typegen`
// writes them as the build would, which then need not check them again).
const lintAndTypes: Task = {
  label: "lint and types",
  runs: [
    { command: "npm", args: ["run", "-s", "lint"] },
    { command: "npm", args: ["run", "-s", "typecheck"] },
  ],
};
// One build for every lane, once the types are checked (not again by the build). The end-to-end suites serve
// a copy of it (its compiler's cache left out), so the deploy walk-through can build where an operator does,
// in .next, on this build's cache: a few seconds of compiling instead of a whole build's, since that cache
// serves only the directory it was built in (e2e/chaos/walkthrough.spec.ts).
const E2E_DIST = ".next-e2e";
const build: Task = {
  label: "production build",
  runs: [
    npx("next", "build"),
    {
      name: `copy .next to ${E2E_DIST}`,
      js: () => {
        rmSync(E2E_DIST, { recursive: true, force: true });
        cpSync(".next", E2E_DIST, {
          recursive: true,
          filter: (from) => from !== path.join(".next", "cache"),
        });
      },
    },
  ],
  env: { BUILD_TYPES_CHECKED: "1" },
  after: [lintAndTypes],
};
// The journey on `npm run dev` runs after the last lane's Playwright run, unless the run was narrowed to some
// projects, on a database of its own: the embedded one `npm run dev` gives, whichever lane it follows.
const devJourney =
  playwrightArgs.length === 0 ? [npx("playwright", "test", "-c", "playwright.dev.config.ts")] : [];
// Each lane runs its suites in turn, and each starts as soon as what it needs has passed: a lane's integration
// tests once its unit tests and the types have, its end-to-end suites once its integration tests and the build
// have. The browser suites run once, shared between the lanes so that they end together (the routes they drive
// are the api project's, which runs on every lane; playwright.config.ts lists the share). Lanes run side by
// side, so each keeps its artifacts apart.
const laneTasks = lanes.flatMap((lane, i): Task[] => {
  const first = i === 0;
  const last = i === lanes.length - 1;
  const unit: Task = {
    label: `unit${on(lane)}`,
    runs: [npx("vitest", "run", "--project", "unit", ...(first ? [] : [UNIT_ON_EVERY_LANE]))],
    env: lane.env,
  };
  const integration: Task = {
    label: `integration${on(lane)}`,
    runs: [
      npx(
        "vitest",
        "run",
        "--project",
        "integration",
        ...(last ? [] : INTEGRATION_ON_LAST_LANE).flatMap((glob) => ["--exclude", glob]),
      ),
    ],
    env: lane.env,
    after: [unit, lintAndTypes],
  };
  const e2e: Task = {
    label: `e2e${on(lane)}`,
    runs: [npx("playwright", "test", ...playwrightArgs), ...(last ? devJourney : [])],
    // The deploy walk-through builds again, from the same tree: its types were checked too.
    env: {
      ...lane.env,
      NEXT_DIST_DIR: E2E_DIST,
      BUILD_TYPES_CHECKED: "1",
      ...(many ? { E2E_BROWSER: first ? "first" : "second" } : {}),
      ...(first
        ? {}
        : {
            E2E_OUTPUT_DIR: `test-results-${lane.name}`,
            PLAYWRIGHT_HTML_OUTPUT_DIR: `playwright-report-${lane.name}`,
          }),
    },
    after: [integration, build],
  };
  return [unit, integration, e2e];
});
await runTasks([lintAndTypes, build, ...laneTasks]);
console.log(`\n✔ every step passed in ${seconds(total)}: ${took.join(", ")}`);
