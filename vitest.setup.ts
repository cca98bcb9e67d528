import { inject } from "vitest";

// Route and domain modules read configuration from process.env on first use.
Object.assign(process.env, inject("appEnv"));
process.env.PGLITE_DIR ??= "memory://";
