import postgres from "postgres";

/**
 * One PostgreSQL database per vitest worker, so files running side by side never share rows, queues or
 * advisory locks. The first worker uses DATABASE_URL itself; each other worker a fresh database beside it,
 * named after it with `_<suffix>2`, `_<suffix>3`… (a suffix per project, so the projects' runs never meet),
 * dropped when the run ends. Without DATABASE_URL, none: embedded databases are per file.
 */
export async function workerDatabases(url: string | undefined, count: number, suffix: string) {
  if (!url) return { urls: Array.from({ length: count }, () => undefined), drop: async () => {} };
  const admin = postgres(url, { max: 1, onnotice: () => {} });
  const base = new URL(url);
  const names = Array.from({ length: count - 1 }, (_, i) => `${base.pathname.slice(1)}_${suffix}${i + 2}`);
  const drop = async () => {
    for (const name of names) await admin.unsafe(`drop database if exists "${name}" with (force)`);
  };
  try {
    await drop();
    for (const name of names) await admin.unsafe(`create database "${name}"`);
  } catch (error) {
    await admin.end();
    throw error;
  }
  const urls = [
    url,
    ...names.map((name) => {
      const u = new URL(url);
      u.pathname = `/${name}`;
      return u.toString();
    }),
  ];
  return {
    urls,
    drop: async () => {
      await drop();
      await admin.end();
    },
  };
}
