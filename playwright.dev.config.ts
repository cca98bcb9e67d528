import { defineConfig } from "@playwright/test";
import { chromium } from "./playwright.config";

/**
 * The browser journey on `npm run dev` (React's development build, next dev compiling as it goes): what a
 * newcomer runs, which the other suites' production build cannot show. One journey, one worker.
 */
export default defineConfig({
  testDir: "e2e/dev",
  outputDir: "test-results-dev",
  globalSetup: "./e2e/dev/global-setup.ts",
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 240_000,
  reporter: process.env.CI
    ? [["list"], ["html", { open: "never", outputFolder: "playwright-report-dev" }]]
    : "list",
  // As playwright.config.ts: a failed test's trace without the screencast, and its screenshot.
  use: { trace: { mode: "retain-on-failure", screenshots: false }, screenshot: "only-on-failure" },
  projects: [{ name: "dev", use: chromium }],
});
