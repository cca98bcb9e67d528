/** Re-renders BENCHMARKS.md from a results JSON without re-running: `tsx scripts/bench/render.ts [results.json]`. */
import { readFileSync } from "node:fs";
import path from "node:path";
import { ROOT } from "./common";
import { writeReport } from "./report";

const file = path.resolve(ROOT, process.argv[2] ?? "scripts/bench/results/latest.json");
const results = JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>;
console.log(writeReport(results, path.join(ROOT, "BENCHMARKS.md"), path.relative(ROOT, file)));
