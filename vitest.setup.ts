import { workerAppEnv } from "./testing/worker-devnet";

// Route and domain modules read configuration from process.env on first use: this worker's devnet and database.
Object.assign(process.env, workerAppEnv());
process.env.PGLITE_DIR ??= "memory://";
