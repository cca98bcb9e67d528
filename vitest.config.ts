import path from "node:path";
import { defineConfig } from "vitest/config";

const UNIT = [
  "lib/**/*.test.ts",
  "app/**/*.test.ts",
  "components/**/*.test.ts",
  "scripts/**/*.test.ts",
  "testing/**/*.test.ts",
];
const INTEGRATION = [
  "lib/**/*.integration.test.ts",
  "app/**/*.integration.test.ts",
  "scripts/**/*.integration.test.ts",
];

/**
 * Two projects, as `mppx` splits its tests: `unit` needs no chain (every chain setting points nowhere) and
 * runs domain tests (`*.db.test.ts`) on a real database in a transaction that always rolls back;
 * `integration` runs on one devnet for the run, each file with its own embedded database (or DATABASE_URL's).
 */
export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname) } },
  test: {
    environment: "node",
    testTimeout: 60_000,
    hookTimeout: 120_000,
    server: { deps: { inline: ["server-only"] } },
    alias: { "server-only": path.resolve(import.meta.dirname, "testing/server-only-stub.ts") },
    projects: [
      {
        extends: true,
        test: { name: "unit", include: UNIT, exclude: INTEGRATION, setupFiles: ["./testing/offline-env.ts"] },
      },
      {
        extends: true,
        test: {
          name: "integration",
          include: INTEGRATION,
          globalSetup: ["./vitest.global-setup.ts"],
          setupFiles: ["./vitest.setup.ts"],
          // One file at a time: files share the devnet's wallets and the facilitator's key, and exact
          // balance assertions must not see another file's payments.
          fileParallelism: false,
        },
      },
    ],
  },
});
