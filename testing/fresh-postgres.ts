import postgres from "postgres";

const server = process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

/**
 * Whether a test that needs a PostgreSQL server beside the embedded database must be skipped: only on a
 * developer's machine with neither DATABASE_URL nor a server on 127.0.0.1:5432 (said on stderr). With
 * DATABASE_URL set, or in CI, a missing server fails the test instead.
 */
export async function postgresMissing(): Promise<boolean> {
  if (process.env.DATABASE_URL || process.env.CI) return false;
  const probe = postgres(server, { max: 1, connect_timeout: 3, onnotice: () => {} });
  try {
    await probe`select 1`;
    return false;
  } catch {
    console.warn(`Skipped: no PostgreSQL at ${server} to move into (set DATABASE_URL to run this test).`);
    return true;
  } finally {
    await probe.end({ timeout: 1 });
  }
}

/**
 * A new, empty PostgreSQL database on the server of DATABASE_URL (else the machine's, trust auth), for
 * one test run; `drop` removes it, whoever is still connected.
 */
export async function freshPostgres(prefix: string) {
  const name = `${prefix}_${Math.random().toString(36).slice(2, 10)}`;
  const admin = postgres(server, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  const url = new URL(server);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      await admin.unsafe(`drop database if exists ${name} with (force)`);
      await admin.end();
    },
  };
}
