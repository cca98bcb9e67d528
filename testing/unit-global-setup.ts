import type { TestProject } from "vitest/node";
import { makeMemoryTemplate } from "./memory-template";
import { workerDatabases } from "./worker-databases";
import { TEST_WORKERS } from "./workers";

/**
 * The unit project's domain tests (`*.db.test.ts`) get a PostgreSQL database per worker when DATABASE_URL is
 * set, else each file's embedded database starts from one migrated template (testing/memory-template.ts).
 */
export default async function setup(project: TestProject) {
  const template = await makeMemoryTemplate();
  const databases = await workerDatabases(process.env.DATABASE_URL, TEST_WORKERS, "u").catch(
    async (error) => {
      await template.remove();
      throw error;
    },
  );
  project.provide("workerDatabaseUrls", databases.urls);
  project.provide("memoryTemplate", template.file ?? "");
  return async () => {
    await databases.drop();
    await template.remove();
  };
}

declare module "vitest" {
  export interface ProvidedContext {
    workerDatabaseUrls: (string | undefined)[];
  }
}
