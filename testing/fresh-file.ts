import { vi } from "vitest";

/**
 * The first setup file of both vitest projects. A worker runs many test files in one process (`isolate:
 * false`, vitest.config.ts), which saves loading viem, mppx, x402, Next and PGlite again for every file; this
 * gives each file what a fresh process would: the environment the worker started with, none of the service's
 * process-wide state (the database handle and its signer-lock session, readiness, metrics, the request
 * context), and every module of the project loaded again, so each reads its configuration anew. Mocks are
 * the file's own anyway (vitest keeps one registry per file).
 */
type Saved = { __freshFileEnv?: Record<string, string | undefined> };
const saved = globalThis as unknown as Saved & Record<string, unknown>;

// What lib/ keeps on globalThis so that Next's module reloads share one per process.
const PROCESS_STATE = /^__(feedback|signerLocks)/;

async function close(key: string, closer: (value: never) => Promise<void>) {
  const value = saved[key];
  delete saved[key];
  if (!value) return;
  try {
    await closer(value as never);
  } catch {
    // A handle that failed to open, or closed already: nothing is left to release.
  }
}

if (!saved.__freshFileEnv) saved.__freshFileEnv = { ...process.env };
else {
  const first = saved.__freshFileEnv;
  for (const name of Object.keys(process.env)) if (!(name in first)) delete process.env[name];
  Object.assign(process.env, first);
  // A file that left the service's database or signer locks open would hold them for the next one.
  await close("__signerLocks", async (locks: Promise<{ session: { close(): Promise<void> } }>) =>
    (await locks).session.close(),
  );
  await close("__feedbackDb", async (handle: Promise<{ close(): Promise<void> }>) => (await handle).close());
  // The event-loop monitors (load shedding's, the metrics') would tick on for the rest of the worker.
  await close(
    "__feedbackShedder",
    async (shedder: { monitor: { disable(): void }; timer: NodeJS.Timeout }) => {
      clearInterval(shedder.timer);
      shedder.monitor.disable();
    },
  );
  await close("__feedbackLoopDelay", async (monitor: { disable(): void }) => {
    monitor.disable();
  });
  for (const key of Object.keys(saved)) if (PROCESS_STATE.test(key)) delete saved[key];
}
vi.resetModules();
