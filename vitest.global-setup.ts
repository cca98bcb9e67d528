import type { TestProject } from "vitest/node";
import { devnetAppEnv } from "./scripts/devnet/app-env";
import { startDevnet } from "./scripts/devnet/start-devnet";
import { workerDatabases } from "./testing/worker-databases";
import { TEST_WORKERS } from "./testing/workers";

/**
 * The integration project runs TEST_WORKERS files at a time, and each worker gets a devnet of its
 * own (local chains, token, funded wallets) and, on PostgreSQL, a database of its own: nothing one file
 * pays, queues or locks can reach the file running beside it. Embedded databases are per file anyway.
 */
export default async function setup(project: TestProject) {
  const appUrl = "http://localhost:3000";
  const devnets = await Promise.all(Array.from({ length: TEST_WORKERS }, () => startDevnet({ appUrl })));
  const databases = await workerDatabases(process.env.DATABASE_URL, TEST_WORKERS, "w").catch(
    async (error) => {
      await Promise.all(devnets.map((d) => d.stop()));
      throw error;
    },
  );
  project.provide(
    "devnets",
    devnets.map((d) => d.info),
  );
  project.provide(
    "appEnvs",
    devnets.map((d, i) => devnetAppEnv(d.info, { databaseUrl: databases.urls[i] })),
  );
  return async () => {
    await Promise.all(devnets.map((d) => d.stop()));
    await databases.drop();
  };
}

declare module "vitest" {
  export interface ProvidedContext {
    devnets: import("./scripts/devnet/start-devnet").DevnetInfo[];
    appEnvs: Record<string, string>[];
  }
}
