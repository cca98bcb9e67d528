import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { expect, test } from "@playwright/test";
import { freePort } from "../../scripts/devnet/anvil";
import { devnetAppEnv } from "../../scripts/devnet/app-env";
import type { DevnetInfo } from "../../scripts/devnet/start-devnet";
import { runScript } from "../../testing/run-script";
import { appInstance } from "./apps";

// A normal stop (SIGTERM, as systemd and `docker stop` send) of a service on the embedded database closes it
// cleanly and removes its own instance record: the offline tools then open the directory without being told
// to override the one guard against two writers, and no check counts the exited process as live.
test("a SIGTERM closes the embedded database cleanly and leaves no instance record behind", async () => {
  test.setTimeout(3 * 60_000);
  const devnet: DevnetInfo = JSON.parse(process.env.E2E_DEVNET!);
  const dir = await mkdtemp(path.join(tmpdir(), "graceful-stop-"));
  const dataDir = path.join(dir, "pglite");
  const lines: string[] = [];
  // Its own embedded database, whichever lane runs it (DATABASE_URL empty is unset).
  const env = { ...devnetAppEnv(devnet, { pgliteDir: dataDir }), PGLITE_DIR: dataDir, DATABASE_URL: "" };
  const app = appInstance(await freePort(), env, (line) => lines.push(line));
  try {
    await app.start();
    // A request that reads the database, so the service is the directory's holder while it runs.
    expect((await fetch(`${app.url}/api/namespace/known-issues?namespace=nobody-here`)).status).toBe(404);
    expect(existsSync(path.join(dataDir, "postmaster.pid"))).toBe(true);
    await app.stop();
    expect(existsSync(path.join(dataDir, "postmaster.pid")), lines.join("\n")).toBe(false);

    const backup = path.join(dir, "after-stop.tar.gz");
    const packed = await runScript("scripts/db/backup.ts", [backup], { ...env, NODE_ENV: "production" });
    expect(packed.code, packed.stderr).toBe(0);
    const db = new PGlite(dataDir);
    try {
      const { rows } = await db.query<{ n: number }>("select count(*)::int as n from instances");
      expect(rows[0]!.n).toBe(0);
    } finally {
      await db.close();
    }
  } finally {
    await app.kill();
    await rm(dir, { recursive: true, force: true });
  }
});
