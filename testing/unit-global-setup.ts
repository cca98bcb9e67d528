import type { TestProject } from "vitest/node";
import { workerDatabases } from "./worker-databases";
import { TEST_WORKERS } from "./workers";

/** The unit project's domain tests (`*.db.test.ts`) get a PostgreSQL database per worker when DATABASE_URL is set. */
export default async function setup(project: TestProject) {
  const databases = await workerDatabases(process.env.DATABASE_URL, TEST_WORKERS, "u");
  project.provide("workerDatabaseUrls", databases.urls);
  return databases.drop;
}

declare module "vitest" {
  export interface ProvidedContext {
    workerDatabaseUrls: (string | undefined)[];
  }
}
