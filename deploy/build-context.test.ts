import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import ignore from "@balena/dockerignore";
import { afterAll, describe, expect, it } from "vitest";

// What `docker build -f deploy/Dockerfile .` sends to the daemon, listed without one: the files under the
// repository root that .dockerignore leaves, matched as Docker matches them (@balena/dockerignore is a port
// of Docker's own matcher). `COPY . .` puts every one of them in a layer of the image.
const ROOT = path.resolve(import.meta.dirname, "..");
const rules = readFileSync(path.join(ROOT, ".dockerignore"), "utf8");

/** Every file the build context of `root` holds, as paths relative to it. */
function buildContext(root: string): string[] {
  const ig = ignore().add(rules);
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(path.join(root, dir), { withFileTypes: true })) {
      const relative = dir ? `${dir}/${entry.name}` : entry.name;
      // An excluded folder is skipped whole: the only exception (!.env.example) is a file at the root.
      if (entry.isDirectory()) {
        if (!ig.ignores(relative)) walk(relative);
      } else if (!ig.ignores(relative)) files.push(relative);
    }
  };
  walk("");
  return files.sort();
}

/** A path that must never reach an image: environment files, keys, data, the host's installs and builds. */
const SECRET =
  /(^|\/)\.env(\.(?!example$)[^/]*)?$|\.(pem|key|dump|tgz)$|(^|\/)(\.npmrc|\.pgpass|\.envrc|id_ed25519|id_rsa)$|^[^/]*\.sql$|^(\.data|\.devnet|backups|node_modules|\.next|dist|\.git)\//;

// Every file an operator may have beside the checkout when building: the secrets deploy.md has them fill,
// what `npm run dev`, `npm run devnet` and a backup leave, and the host's own installs and builds.
const LEFT_BY_AN_OPERATOR = [
  ".env",
  ".env.local",
  ".env.production",
  ".env.production.local",
  ".env.development.local",
  "deploy/.env",
  ".data/pglite/PG_VERSION",
  ".devnet/devnet.json",
  ".devnet/production.env",
  "backups/feedback-2026-11-28.tar.gz",
  "node_modules/next/package.json",
  ".next/BUILD_ID",
  "dist/worker.mjs",
  ".git/config",
  "keys/payout.pem",
  // What the docs have an operator make, or a shell leaves, beside the checkout.
  "feedback.dump",
  "dump.sql",
  ".npmrc",
  ".pgpass",
  ".envrc",
  "feedback-service-0.1.0.tgz",
  "id_ed25519",
  "lib/.npmrc",
  "scripts/payout.key",
];
const NEEDED = [
  "package.json",
  "package-lock.json",
  "next.config.ts",
  "tsconfig.json",
  "app/layout.tsx",
  "lib/env.ts",
  "drizzle/0000_init.sql",
  "scripts/worker.ts",
];

describe("the image's build context", () => {
  const fixture = mkdtempSync(path.join(tmpdir(), "build-context-"));
  afterAll(() => rmSync(fixture, { recursive: true, force: true }));

  it("leaves out every secret, data folder and host build an operator may have, and keeps what the build needs", () => {
    writeFileSync(path.join(fixture, ".dockerignore"), rules);
    for (const file of [...LEFT_BY_AN_OPERATOR, ...NEEDED]) {
      mkdirSync(path.join(fixture, path.dirname(file)), { recursive: true });
      writeFileSync(path.join(fixture, file), "x");
    }
    const context = buildContext(fixture);
    expect(context.filter((f) => SECRET.test(f))).toEqual([]);
    expect(context).toEqual(expect.arrayContaining(NEEDED));
    expect(context.filter((f) => LEFT_BY_AN_OPERATOR.includes(f))).toEqual([]);
  });

  it("of this checkout, as it is on disk now, holds no secret and every migration", () => {
    const context = buildContext(ROOT);
    expect(context.filter((f) => SECRET.test(f))).toEqual([]);
    const migrations = readdirSync(path.join(ROOT, "drizzle")).filter((f) => f.endsWith(".sql"));
    expect(migrations.length).toBeGreaterThan(0);
    expect(context).toEqual(expect.arrayContaining(migrations.map((m) => `drizzle/${m}`)));
    expect(context).toEqual(expect.arrayContaining(["package.json", "package-lock.json", "next.config.ts"]));
  });

  it("matches git: every environment file but the template is ignored, so none is committed", () => {
    const envFiles = LEFT_BY_AN_OPERATOR.filter((f) => /(^|\/)\.env/.test(f));
    // Prints the paths git ignores, one a line; .env.example must not be among them.
    const { stdout } = spawnSync("git", ["check-ignore", "--no-index", ...envFiles, ".env.example"], {
      cwd: ROOT,
      encoding: "utf8",
    });
    expect(stdout.trim().split("\n").sort()).toEqual([...envFiles].sort());
  });
});
