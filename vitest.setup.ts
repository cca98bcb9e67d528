import { inject } from "vitest";

// Route and domain modules read configuration from process.env on first use.
Object.assign(process.env, inject("appEnv"));
process.env.PGLITE_DIR ??= "memory://";
// Test files run one after another, each in a process of its own: one instance name lets each take
// over the signing-key leases the one before held, as a restarted instance does.
process.env.INSTANCE_ID ??= "vitest";
