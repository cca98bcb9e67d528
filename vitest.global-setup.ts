import type { TestProject } from "vitest/node";
import { devnetAppEnv } from "./scripts/devnet/app-env";
import { startDevnet } from "./scripts/devnet/start-devnet";

/** One real local chain for the whole unit/route suite; each worker gets its own embedded database. */
export default async function setup(project: TestProject) {
  const devnet = await startDevnet({ appUrl: "http://localhost:3000" });
  project.provide("devnet", devnet.info);
  project.provide("appEnv", devnetAppEnv(devnet.info, { databaseUrl: process.env.DATABASE_URL }));
  return () => devnet.stop();
}

declare module "vitest" {
  export interface ProvidedContext {
    devnet: import("./scripts/devnet/start-devnet").DevnetInfo;
    appEnv: Record<string, string>;
  }
}
