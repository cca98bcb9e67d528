/**
 * lib/'s layers in one ordered list, from which biome.json's `overrides` are written: `npx tsx
 * scripts/biome-layers.ts` writes them, `npm run lint:layers` (part of `npm run lint`) fails when they differ.
 */
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { isDeepStrictEqual } from "node:util";

const ROOT = path.resolve(import.meta.dirname, "..");
const BIOME_JSON = path.join(ROOT, "biome.json");

/** The layers, bottom first, as lib/README.md tables them; a folder ends in "/", a file in ".ts". */
export const LAYERS: readonly (readonly string[])[] = [
  ["env.ts", "money.ts", "schemas/"],
  ["db/", "chain/"],
  ["http/"],
  ["auth/"],
  ["payment/"],
  ["domain/", "webhooks/", "ops/"],
  ["openapi/", "mcp/"],
  ["api-client/", "startup.ts"],
];

/** The tooling, which nothing in lib/ may import. */
const TOOLING = ["scripts", "testing"];

/** Route handlers stay off the database whatever they import from lib/. */
const APP = {
  includes: ["app/**"],
  imports: ["@/lib/db/client", "drizzle-orm"],
  message: "Routes call domain verbs; they never touch the database.",
};

const stem = (module: string) => module.replace(/(\/|\.ts)$/, "");
const specifiers = (name: string) => [`@/${name}`, `@/${name}/**`];

function restrictedImports(options: object) {
  return { linter: { rules: { style: { noRestrictedImports: { level: "error", options } } } } };
}

/** The `overrides` of biome.json: the app/ rule, then one per layer banning every layer above it. */
export function layerOverrides() {
  const app = {
    includes: APP.includes,
    ...restrictedImports({ paths: Object.fromEntries(APP.imports.map((name) => [name, APP.message])) }),
  };
  const layers = LAYERS.map((layer, i) => {
    const above = LAYERS.slice(i + 1)
      .flat()
      .map((module) => `lib/${stem(module)}`);
    const name = layer.map(stem).join(", ");
    return {
      includes: [
        ...layer.map((module) => `lib/${module.endsWith("/") ? `${module}**` : module}`),
        "!**/*.test.ts",
      ],
      ...restrictedImports({
        patterns: [
          {
            group: [...above, ...TOOLING].flatMap(specifiers),
            message: `lib/ is layered (lib/README.md): ${name} may import only from its own layer and the layers below it, and never from the tooling (scripts/, testing/).`,
          },
        ],
      }),
    };
  });
  return [app, ...layers];
}

/** Whether biome.json's `overrides` are what the list above generates. */
export function biomeOverridesCurrent(): boolean {
  return isDeepStrictEqual(JSON.parse(readFileSync(BIOME_JSON, "utf8")).overrides, layerOverrides());
}

if (import.meta.filename === process.argv[1]) {
  if (process.argv.includes("--check")) {
    if (!biomeOverridesCurrent()) {
      console.error(
        "biome.json's overrides differ from scripts/biome-layers.ts: run `npx tsx scripts/biome-layers.ts`.",
      );
      process.exit(1);
    }
  } else {
    const config = JSON.parse(readFileSync(BIOME_JSON, "utf8"));
    config.overrides = layerOverrides();
    writeFileSync(BIOME_JSON, `${JSON.stringify(config, null, 2)}\n`);
    execFileSync("npx", ["biome", "format", "--write", "biome.json"], { cwd: ROOT, stdio: "inherit" });
  }
}
