import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildScripts, ENTRY_POINTS, packageOf } from "../scripts/build-scripts";

// The image runs the worker, the facilitator, the migrations and the doctor as compiled by
// `npm run build:scripts`, on `npm ci --omit=dev`: a package they import that is only a dev dependency (or is
// not declared at all) is missing there, and the process dies at its first line. So is an import Node's ESM
// loader cannot resolve on its own (`next/server` without its extension), which tsx used to paper over.
const ROOT = path.resolve(import.meta.dirname, "..");
const manifest = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as {
  dependencies: Record<string, string>;
};

describe("the compiled scripts (npm run build:scripts)", () => {
  const outdir = mkdtempSync(path.join(tmpdir(), "built-scripts-"));
  /** Each output's bare imports, which Node loads from node_modules at run time. */
  let imports: Map<string, string[]>;
  beforeAll(async () => {
    const metafile = await buildScripts(outdir);
    imports = new Map(
      Object.entries(metafile.outputs)
        .filter(([file]) => file.endsWith(".mjs"))
        .map(([file, output]) => [
          path.relative(outdir, path.resolve(ROOT, file)),
          output.imports.filter((i) => i.external && packageOf(i.path)).map((i) => i.path),
        ]),
    );
  });
  afterAll(() => rmSync(outdir, { recursive: true, force: true }));

  it("builds every entry point", () => {
    expect([...imports.keys()].sort()).toEqual(ENTRY_POINTS.map((e) => `${e}.mjs`).sort());
  });

  it("imports only packages listed in `dependencies`, which `npm ci --omit=dev` installs", () => {
    const outside = [...imports].flatMap(([file, specifiers]) =>
      specifiers
        .map((s) => packageOf(s)!)
        .filter((p) => !(p in manifest.dependencies))
        .map((p) => `${file}: ${p}`),
    );
    expect([...new Set(outside)]).toEqual([]);
  });

  it("imports only what Node's own ESM loader resolves, with the conditions the image runs them under", () => {
    const specifiers = [...new Set([...imports.values()].flat())];
    // import.meta.resolve from the repository's root, as a file in dist/ resolves. It throws on a package it cannot
    // find, and answers a file that does not exist for a subpath without its extension: both are reported.
    const check = `import { existsSync } from "node:fs";
      for (const s of ${JSON.stringify(specifiers)}) {
        try { const url = import.meta.resolve(s); if (!existsSync(new URL(url))) console.log(s + ": no file " + url) }
        catch (e) { console.log(s + ": " + e.code) }
      }`;
    const { stdout, stderr, status } = spawnSync(
      process.execPath,
      ["--conditions=react-server", "--input-type=module", "-e", check],
      { cwd: ROOT, encoding: "utf8" },
    );
    expect(stderr).toBe("");
    expect(status).toBe(0);
    expect(stdout.trim().split("\n").filter(Boolean)).toEqual([]);
  });
});
