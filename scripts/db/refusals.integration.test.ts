import { createWriteStream, existsSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { mkdir, mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { createGzip } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tarGz } from "@/lib/ops/tar";
import { type Ran, runScript } from "@/testing/run-script";
import { Refusal } from "./cli";
import { openEmbedded } from "./embedded";
import { restoreBackup } from "./restore-backup";

// The embedded-database commands an operator runs with the service stopped: each refuses a directory some
// process may hold, reads the same environment files as `next start`, and says in one line, without a
// stack, that a damaged backup is not one.
const ROOT = process.cwd();
const script = (name: string) => path.join(ROOT, "scripts", name);
let scratch: string;
let dataDir: string;
let backup: string;

/** A command run as an operator would, on `PGLITE_DIR` (no DATABASE_URL), from `cwd`. */
const run = (name: string, args: string[], pgliteDir: string | undefined, cwd = ROOT) =>
  runScript(
    script(name),
    args,
    { DATABASE_URL: undefined, PGLITE_DIR: pgliteDir, NODE_ENV: "production" },
    cwd,
  );

/** A refusal: exit 1, one "Refused:" line naming `words`, and no stack trace. */
function expectRefused(ran: Ran, words: RegExp) {
  expect(ran.code, ran.stdout + ran.stderr).toBe(1);
  const lines = ran.stderr.trim().split("\n");
  expect(lines.filter((line) => line.startsWith("Refused: "))).toHaveLength(1);
  expect(ran.stderr).toMatch(words);
  expect(ran.stderr).not.toMatch(/^\s+at /m);
}

beforeAll(async () => {
  scratch = await mkdtemp(path.join(tmpdir(), "db-refusals-"));
  dataDir = path.join(scratch, "pglite");
  await (await openEmbedded(dataDir)).close();
  backup = path.join(scratch, "whole.tar.gz");
  await pipeline(tarGz(dataDir), createWriteStream(backup));
});
afterAll(() => rm(scratch, { recursive: true, force: true }));

describe("a directory some process may hold", () => {
  it("is refused while this process has it open, naming the process", async () => {
    const held = await openEmbedded(dataDir);
    try {
      expectRefused(await run("migrate.ts", [], dataDir), new RegExp(`open in process .*${process.pid}`));
      expectRefused(await run("db/restore.ts", [backup, "--replace"], dataDir), /open in process/);
    } finally {
      await held.close();
    }
  });

  it("is refused with a postmaster.pid no process here backs (a killed service, or one in another container) until --not-in-use", async () => {
    writeFileSync(path.join(dataDir, "postmaster.pid"), "-42\n");
    for (const [name, args] of [
      ["migrate.ts", []],
      ["db/backup.ts", [path.join(scratch, "refused.tar.gz")]],
      ["db/restore.ts", [backup, "--replace"]],
    ] as const) {
      expectRefused(await run(name, [...args], dataDir), /no process on this machine backs.*--not-in-use/);
    }
    expect(existsSync(path.join(scratch, "refused.tar.gz"))).toBe(false);
    const migrated = await run("migrate.ts", ["--not-in-use"], dataDir);
    expect(migrated.code, migrated.stderr).toBe(0);
    const taken = await run("db/backup.ts", [path.join(scratch, "taken.tar.gz"), "--not-in-use"], dataDir);
    expect(taken.code, taken.stderr).toBe(0);
    expect(existsSync(path.join(scratch, "taken.tar.gz"))).toBe(true);
  });
});

describe("a restore a service starts under", () => {
  it("looks again once the backup is loaded: a service started during the unpack keeps its directory", async () => {
    const target = path.join(scratch, "raced");
    await (await openEmbedded(target)).close();
    const marker = path.join(target, "marker");
    writeFileSync(marker, "the running service's data");
    let service: Awaited<ReturnType<typeof openEmbedded>> | undefined;
    try {
      const restoring = restoreBackup({
        file: backup,
        dataDir: target,
        replace: true,
        notInUse: false,
        // The service starts between the first look and the move.
        loaded: async () => {
          service = await openEmbedded(target);
        },
      });
      await expect(restoring).rejects.toThrow(Refusal);
      await expect(restoring).rejects.toThrow(new RegExp(`open in process .*${process.pid}`));
    } finally {
      await service?.close();
    }
    expect(readFileSync(marker, "utf8")).toBe("the running service's data");
    const siblings = await readdir(scratch);
    expect(
      siblings.filter((name) => name.startsWith(".raced.restoring-") || name.startsWith("raced.replaced-")),
    ).toEqual([]);
  });
});

describe("a migration into a directory a service is creating", () => {
  it("is refused while a postmaster.pid stands there, though no PG_VERSION does yet", async () => {
    const starting = path.join(scratch, "starting");
    await mkdir(starting);
    writeFileSync(path.join(starting, "postmaster.pid"), "-42\n");
    expectRefused(await run("migrate.ts", [], starting), /no process on this machine backs.*--not-in-use/);
    expect(existsSync(path.join(starting, "PG_VERSION")), "no second database was made beside it").toBe(
      false,
    );
  });
});

describe("a restore into an empty directory a service starts under", () => {
  it("looks again once the backup is loaded, and leaves the service's new files alone", async () => {
    const target = path.join(scratch, "empty-raced");
    await mkdir(target);
    let service: Awaited<ReturnType<typeof openEmbedded>> | undefined;
    try {
      const restoring = restoreBackup({
        file: backup,
        dataDir: target,
        replace: false,
        notInUse: false,
        // The service starts into the empty directory between the first look and the move.
        loaded: async () => {
          service = await openEmbedded(target);
        },
      });
      await expect(restoring).rejects.toThrow(Refusal);
      await expect(restoring).rejects.toThrow(new RegExp(`open in process .*${process.pid}`));
      expect(existsSync(path.join(target, "PG_VERSION")), "the service's database is still there").toBe(true);
    } finally {
      await service?.close();
    }
    // Stopped, but what it wrote is still there: the restore says so rather than remove it.
    const again = restoreBackup({
      file: backup,
      dataDir: target,
      replace: false,
      notInUse: false,
      loaded: async () => {},
    });
    await expect(again).rejects.toThrow(/is not empty/);
  });
});

describe("npm run db:migrate", () => {
  it("migrates the database the service's .env files name, not a default beside it", async () => {
    const cwd = path.join(scratch, "operator");
    await mkdir(cwd);
    // A checkout of its own, as far as the command reads one: its migrations, packages and tsconfig.
    for (const entry of ["drizzle", "node_modules", "tsconfig.json", "package.json"]) {
      symlinkSync(path.join(ROOT, entry), path.join(cwd, entry));
    }
    const named = path.join(scratch, "from-env-file");
    writeFileSync(path.join(cwd, ".env.production.local"), `PGLITE_DIR=${named}\n`);
    const ran = await runScript(
      script("migrate.ts"),
      [],
      {
        DATABASE_URL: undefined,
        PGLITE_DIR: undefined,
        NODE_ENV: "production",
        TSX_TSCONFIG_PATH: path.join(ROOT, "tsconfig.json"),
      },
      cwd,
    );
    expect(ran.code, ran.stderr).toBe(0);
    expect(ran.stdout).toContain(`the embedded database in ${named}`);
    expect(readFileSync(path.join(named, "PG_VERSION"), "utf8").trim()).toMatch(/^\d+$/);
    expect(existsSync(path.join(cwd, ".data"))).toBe(false);
  });
});

describe("a damaged backup", () => {
  it("is refused in one line saying it is not a complete backup: cut short, not gzip, or not a database", async () => {
    const whole = readFileSync(backup);
    const cut = path.join(scratch, "cut.tar.gz");
    writeFileSync(cut, whole.subarray(0, Math.floor(whole.length / 2)));
    const garbage = path.join(scratch, "garbage.tar.gz");
    writeFileSync(garbage, Buffer.from("this is no gzip at all, just some text an operator copied\n"));
    // A well-formed archive whose files make no database: PG_VERSION and nothing else that it needs.
    const hollowDir = path.join(scratch, "hollow");
    await mkdir(path.join(hollowDir, "base"), { recursive: true });
    writeFileSync(path.join(hollowDir, "PG_VERSION"), "17\n");
    writeFileSync(path.join(hollowDir, "base", "1"), "not a relation");
    const hollow = path.join(scratch, "hollow.tar.gz");
    await pipeline(tarGz(hollowDir), createWriteStream(hollow));
    for (const file of [cut, garbage, hollow]) {
      const target = path.join(scratch, `restore-${path.basename(file)}`);
      expectRefused(
        await run("db/restore.ts", [file], target),
        /is not a complete backup|not a whole backup/,
      );
      expect(existsSync(target)).toBe(false);
    }
    // The gzip stream alone is whole here: a short archive inside it is named as such too.
    const short = path.join(scratch, "short.tar.gz");
    await pipeline(
      (async function* () {
        yield whole.length > 0 ? Buffer.alloc(512, 1) : Buffer.alloc(0);
      })(),
      createGzip(),
      createWriteStream(short),
    );
    expectRefused(await run("db/restore.ts", [short], path.join(scratch, "restore-short")), /backup/);
  });
});
