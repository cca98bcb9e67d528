import type { TestProject } from "vitest/node";
import { devnetAppEnv } from "./scripts/devnet/app-env";
import { startDevnet } from "./scripts/devnet/start-devnet";
import { makeMemoryTemplate } from "./testing/memory-template";
import { workerDatabases } from "./testing/worker-databases";
import { TEST_WORKERS } from "./testing/workers";

/**
 * The integration project runs TEST_WORKERS files at a time, and each worker gets a devnet of its
 * own (local chains, token, funded wallets) and, on PostgreSQL, a database of its own: nothing one file
 * pays, queues or locks can reach the file running beside it. Embedded databases are per file anyway, each
 * started from one migrated template (testing/memory-template.ts).
 */
export default async function setup(project: TestProject) {
  const appUrl = "http://localhost:3000";
  const [devnets, template] = await Promise.all([
    Promise.all(Array.from({ length: TEST_WORKERS }, () => startDevnet({ appUrl }))),
    makeMemoryTemplate(),
  ]);
  const databases = await workerDatabases(process.env.DATABASE_URL, TEST_WORKERS, "w").catch(
    async (error) => {
      await Promise.all([...devnets.map((d) => d.stop()), template.remove()]);
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
  project.provide("memoryTemplate", template.file ?? "");
  return async () => {
    await Promise.all(devnets.map((d) => d.stop()));
    await databases.drop();
    await template.remove();
  };
}

declare module "vitest" {
  export interface ProvidedContext {
    devnets: import("./scripts/devnet/start-devnet").DevnetInfo[];
    appEnvs: Record<string, string>[];
  }
}
