/**
 * `npm run build:scripts`: the processes and commands an image runs beside `next start` (the worker, the
 * standalone facilitator, migrations, the doctor, backups), compiled to plain ESM in dist/ so they run with
 * `node` on production dependencies alone, without tsx. The project's own code is bundled; every package
 * stays external and is loaded by Node from node_modules at run time, as `next start` loads them.
 */
import { readFileSync } from "node:fs";
import { isBuiltin } from "node:module";
import path from "node:path";
import { build, type Metafile, type Plugin } from "esbuild";

const ROOT = path.resolve(import.meta.dirname, "..");

/** scripts/<name>.ts → dist/<name>.mjs. */
export const ENTRY_POINTS = [
  "worker",
  "facilitator",
  "migrate",
  "doctor",
  "db/backup",
  "db/restore",
  "db/move-to-postgres",
] as const;

/** `name` or `@scope/name` of a bare import, or null for a relative path, an alias or a Node builtin. */
export function packageOf(specifier: string): string | null {
  if (/^(\.|\/|@\/)/.test(specifier) || isBuiltin(specifier)) return null;
  const parts = specifier.split("/");
  return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0]!;
}

/**
 * Leaves packages to Node, writing an import of a file inside a package that declares no `exports` map
 * (`next/server`) as the file itself (`next/server.js`): Node's ESM loader adds no extension, a bundler does.
 */
const packagesExternal: Plugin = {
  name: "packages-external",
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, async (args) => {
      const name = packageOf(args.path);
      if (!name || args.pluginData === "inner") return undefined;
      if (name === args.path) return { path: args.path, external: true };
      const dir = path.join(ROOT, "node_modules", name);
      const manifest = JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8")) as {
        exports?: unknown;
      };
      if (manifest.exports) return { path: args.path, external: true };
      const found = await b.resolve(args.path, {
        kind: args.kind,
        resolveDir: args.resolveDir,
        pluginData: "inner",
      });
      if (found.errors.length) return { errors: found.errors };
      return { path: `${name}/${path.relative(dir, found.path).split(path.sep).join("/")}`, external: true };
    });
  },
};

/** Bundles every entry point into `outdir`; the metafile lists what each output imports. */
export async function buildScripts(outdir = path.join(ROOT, "dist")): Promise<Metafile> {
  const result = await build({
    absWorkingDir: ROOT,
    entryPoints: ENTRY_POINTS.map((name) => ({ in: `scripts/${name}.ts`, out: name })),
    outdir,
    outExtension: { ".js": ".mjs" },
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node22.13",
    tsconfig: path.join(ROOT, "tsconfig.json"),
    plugins: [packagesExternal],
    metafile: true,
    logLevel: "warning",
  });
  return result.metafile;
}

if (import.meta.filename === process.argv[1]) {
  const metafile = await buildScripts();
  for (const [file, output] of Object.entries(metafile.outputs)) {
    if (file.endsWith(".mjs")) console.log(`${file}  ${(output.bytes / 1024).toFixed(0)} kB`);
  }
}
