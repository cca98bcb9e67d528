import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { biomeOverridesCurrent, LAYERS, layerOverrides } from "./biome-layers";

const ROOT = path.resolve(import.meta.dirname, "..");

describe("the layer list", () => {
  it("is what biome.json enforces (else run `npx tsx scripts/biome-layers.ts`)", () => {
    const { overrides } = JSON.parse(readFileSync(path.join(ROOT, "biome.json"), "utf8"));
    expect(overrides).toEqual(layerOverrides());
    expect(biomeOverridesCurrent()).toBe(true);
  });

  it("is the table of lib/README.md, in its order", () => {
    const readme = readFileSync(path.join(ROOT, "lib/README.md"), "utf8");
    const rows = [...readme.matchAll(/^\|\s*\d+\s*\|([^|]+)\|/gm)].map((row) =>
      [...row[1]!.matchAll(/`([^`]+)`/g)].map((name) => name[1]),
    );
    expect(rows).toEqual(LAYERS);
  });

  it("places every module of lib/ in exactly one layer", () => {
    const modules = readdirSync(path.join(ROOT, "lib"), { withFileTypes: true })
      .filter(
        (entry) => entry.isDirectory() || (entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts")),
      )
      .map((entry) => (entry.isDirectory() ? `${entry.name}/` : entry.name));
    expect(LAYERS.flat().toSorted()).toEqual(modules.toSorted());
  });
});
