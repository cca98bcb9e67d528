import path from "node:path";
import { defineConfig } from "vitest/config";
import { TEST_WORKERS } from "./testing/workers";

const UNIT = [
  "lib/**/*.test.ts",
  "app/**/*.test.ts",
  "components/**/*.test.ts",
  "scripts/**/*.test.ts",
  "testing/**/*.test.ts",
  "deploy/**/*.test.ts",
];
const INTEGRATION = [
  "lib/**/*.integration.test.ts",
  "app/**/*.integration.test.ts",
  "scripts/**/*.integration.test.ts",
];

/**
 * Two projects, as `mppx` splits its tests: `unit` needs no chain (every chain setting points nowhere) and
 * runs domain tests (`*.db.test.ts`) on a real database in a transaction that always rolls back;
 * `integration` runs on local chains, each file with its own embedded database. Each runs TEST_WORKERS
 * files at a time, and each worker has its own PostgreSQL database when DATABASE_URL is set (and, in
 * `integration`, its own devnet), so files side by side never see each other's rows or payments.
 */
export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname) } },
  test: {
    environment: "node",
    testTimeout: 60_000,
    hookTimeout: 120_000,
    server: { deps: { inline: ["server-only"] } },
    // One process runs many files: loading the libraries once per worker, not once per file, halves the
    // run. testing/fresh-file.ts gives each file a fresh environment, process state and project modules.
    isolate: false,
    alias: { "server-only": path.resolve(import.meta.dirname, "testing/server-only-stub.ts") },
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: UNIT,
          exclude: INTEGRATION,
          globalSetup: ["./testing/unit-global-setup.ts"],
          setupFiles: ["./testing/fresh-file.ts", "./testing/offline-env.ts", "./testing/db-files-named.ts"],
          maxWorkers: TEST_WORKERS,
        },
      },
      {
        extends: true,
        test: {
          name: "integration",
          include: INTEGRATION,
          globalSetup: ["./vitest.global-setup.ts"],
          setupFiles: ["./testing/fresh-file.ts", "./vitest.setup.ts"],
          // A few files at a time, each worker on a devnet and database of its own (vitest.global-setup.ts):
          // exact balance assertions never see another file's payments.
          maxWorkers: TEST_WORKERS,
        },
      },
    ],
  },
});
