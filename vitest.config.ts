import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname) } },
  test: {
    include: ["lib/**/*.test.ts", "app/**/*.test.ts", "scripts/**/*.test.ts"],
    environment: "node",
    globalSetup: ["./vitest.global-setup.ts"],
    setupFiles: ["./vitest.setup.ts"],
    // One file at a time: files share the devnet's wallets and the facilitator's key, and exact
    // balance assertions must not see another file's payments.
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 120_000,
    server: { deps: { inline: ["server-only"] } },
    alias: { "server-only": path.resolve(import.meta.dirname, "lib/testing/server-only-stub.ts") },
  },
});
