/**
 * `npm test`: every test, in the order a failure is cheapest to read: unit (no chain), integration and route
 * tests on a local chain, the production build, then Playwright over HTTP (api) and in Chromium (ui). Set
 * DATABASE_URL to run all of it on PostgreSQL instead of the embedded database.
 */
import { spawnSync } from "node:child_process";

const took: string[] = [];
const seconds = (since: number) => `${Math.round((performance.now() - since) / 1000)} s`;

function run(label: string, command: string, args: string[]) {
  console.log(`\n▶ ${label}: ${command} ${args.join(" ")}`);
  const started = performance.now();
  const result = spawnSync(command, args, { stdio: "inherit", env: process.env });
  took.push(`${label}: ${seconds(started)}`);
  if (result.status !== 0) {
    console.error(`\n✖ ${label} failed (exit ${result.status ?? result.signal}) after ${took.join(", ")}`);
    process.exit(result.status ?? 1);
  }
}

console.log(`Database: ${process.env.DATABASE_URL ? "PostgreSQL from DATABASE_URL" : "embedded PGlite"}`);
run("unit tests (no chain)", "npx", ["vitest", "run", "--project", "unit"]);
run("integration and route tests (devnet)", "npx", ["vitest", "run", "--project", "integration"]);
run("production build", "npx", ["next", "build"]);
run("end-to-end tests", "npx", ["playwright", "test", ...process.argv.slice(2)]);
console.log(`\n✔ every phase passed: ${took.join(", ")}`);
