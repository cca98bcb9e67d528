import postgres from "postgres";

/**
 * A new, empty PostgreSQL database on the server of DATABASE_URL (else the machine's, trust auth), for
 * one test run; `drop` removes it, whoever is still connected.
 */
export async function freshPostgres(prefix: string) {
  const server = process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
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
