import { existsSync } from "node:fs";
import { defineConfig, type Project } from "@playwright/test";

// Debian's Chromium where it exists (this machine, CI): its headless shell, the build Playwright itself runs
// headless (a third less CPU than the full browser for the same pages), else the browser; Playwright's own
// build elsewhere.
const systemChromium = [
  "/usr/lib/chromium/chromium-headless-shell",
  "/usr/bin/chromium",
  "/usr/bin/chromium-browser",
].find((p) => existsSync(p));

/** The browser the ui project (and the dev-server journey, playwright.dev.config.ts) drives. */
export const chromium: Project["use"] = {
  browserName: "chromium",
  launchOptions: {
    executablePath: systemChromium,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  },
};

/**
 * `npm test -- --with-postgres` runs each browser file once, on one of its two lanes, and each lane's run
 * beside the other with artifacts of its own (scripts/test.ts): these files on the PostgreSQL lane
 * (`E2E_BROWSER=second`), the others on the embedded one (`first`), a share that ends the lanes together.
 * `E2E_BROWSER=off` leaves the browser out; unset, every file runs.
 */
const BROWSER_ON_SECOND_LANE = ["inbox-walk.spec.ts", "known-issues.spec.ts"];
const share = process.env.E2E_BROWSER;
const browser = share !== "off";
const ui: Project = {
  name: "ui",
  testDir: "e2e/ui",
  use: chromium,
  ...(share === "first" ? { testIgnore: BROWSER_ON_SECOND_LANE } : {}),
  ...(share === "second" ? { testMatch: BROWSER_ON_SECOND_LANE } : {}),
};

export default defineConfig({
  testDir: "e2e",
  outputDir: process.env.E2E_OUTPUT_DIR ?? "test-results",
  globalSetup: "./e2e/global-setup.ts",
  fullyParallel: false,
  workers: 2,
  retries: 0,
  timeout: 90_000,
  reporter: process.env.CI ? [["list"], ["html", { open: "never" }]] : "list",
  // A failed test keeps its trace (each action, the page's DOM before and after it, console and network) and a
  // screenshot at the failure. The trace leaves out its screencast: recording it was a fifth of the browser
  // suite's CPU (walk and inbox walk: 181 s of the machine's CPU with it, 144 s without, 131 s with no trace).
  use: { trace: { mode: "retain-on-failure", screenshots: false }, screenshot: "only-on-failure" },
  projects: [
    { name: "api", testDir: "e2e/api" },
    // Kills app instances and floods the machine: it runs after the other projects, a file at a time, beside
    // the deploy walk-through, which waits on builds, nginx and its own chains more than it computes.
    {
      name: "chaos",
      testDir: "e2e/chaos",
      testIgnore: "walkthrough.spec.ts",
      dependencies: browser ? ["api", "ui"] : ["api"],
      workers: 1,
    },
    {
      name: "walkthrough",
      testDir: "e2e/chaos",
      testMatch: "walkthrough.spec.ts",
      dependencies: browser ? ["api", "ui"] : ["api"],
      workers: 1,
    },
    ...(browser ? [ui] : []),
  ],
});
