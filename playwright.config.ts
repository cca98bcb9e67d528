import { existsSync } from "node:fs";
import { defineConfig } from "@playwright/test";

// Debian's Chromium where it exists (this machine, CI); Playwright's own build elsewhere.
const systemChromium = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].find((p) => existsSync(p));

export default defineConfig({
  testDir: "e2e",
  globalSetup: "./e2e/global-setup.ts",
  fullyParallel: false,
  workers: 2,
  retries: 0,
  timeout: 90_000,
  reporter: process.env.CI ? [["list"], ["html", { open: "never" }]] : "list",
  use: { trace: "retain-on-failure", screenshot: "only-on-failure" },
  projects: [
    { name: "api", testDir: "e2e/api" },
    // Kills app instances and floods the machine: it runs alone, after the other projects, a file at a time.
    { name: "chaos", testDir: "e2e/chaos", dependencies: ["api", "ui"], workers: 1 },
    {
      name: "ui",
      testDir: "e2e/ui",
      use: {
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
      },
    },
  ],
});
