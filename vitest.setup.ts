import { inject } from "vitest";
import { workerAppEnv } from "./testing/worker-devnet";

// Route and domain modules read configuration from process.env on first use: this worker's devnet and database.
Object.assign(process.env, workerAppEnv());
process.env.PGLITE_DIR ??= "memory://";
// Every in-memory database starts from the run's migrated template (testing/memory-template.ts).
process.env.FEEDBACK_MEMORY_TEMPLATE = inject("memoryTemplate");
