import { vi } from "vitest";

type Loaded = {
  appFetch: typeof fetch;
  client: typeof import("@/lib/db/client");
  paid: typeof import("@/lib/domain/paid-operations");
};
export type Service = Loaded & { close: () => Promise<void> };

let current: Service | undefined;

/**
 * The service in this process, started again on another database: the configuration is read once per
 * process (env()), so the previous handle is closed and every module of the service is loaded afresh
 * with the new environment, as a restart of `next start` with a new configuration would.
 */
export async function serviceOn(
  database: { pgliteDir: string } | { url: string },
  settings: Record<string, string | undefined> = {},
): Promise<Service> {
  await current?.close();
  if ("url" in database) process.env.DATABASE_URL = database.url;
  else {
    delete process.env.DATABASE_URL;
    process.env.PGLITE_DIR = database.pgliteDir;
  }
  for (const [name, value] of Object.entries(settings)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  vi.resetModules();
  const [{ appFetch }, client, paid] = await Promise.all([
    import("@/testing/app-fetch"),
    import("@/lib/db/client"),
    import("@/lib/domain/paid-operations"),
  ]);
  await client.getDb();
  const service: Service = {
    appFetch,
    client,
    paid,
    close: async () => {
      if (current === service) current = undefined;
      await client.closeDb();
    },
  };
  current = service;
  return service;
}

/** A fetch that always calls the service as it is now (the clients are made once, the service restarts). */
export const currentService: typeof fetch = (input, init) => {
  if (!current) throw new Error("no service is running");
  return current.appFetch(input, init);
};
