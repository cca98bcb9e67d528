import path from "node:path";
import { afterAll, expect } from "vitest";

// A unit file that opens the service's database must be named `*.db.test.ts`: `npm test -- --with-postgres`
// runs only those again on PostgreSQL (scripts/test.ts), so one named otherwise would never meet it there.
afterAll(() => {
  const file = expect.getState().testPath ?? "";
  if (!(globalThis as { __feedbackDb?: unknown }).__feedbackDb || file.endsWith(".db.test.ts")) return;
  throw new Error(
    `${path.relative(process.cwd(), file)} opens the database: name it *.db.test.ts, which every database's lane runs (scripts/test.ts)`,
  );
});
