import { describe, expect, it } from "vitest";
import { failureSummary } from "./test-failures";

const red = (s: string) => `\u001b[31m${s}\u001b[39m`;

describe("failureSummary", () => {
  it("keeps Playwright's failure details and its count, without colours", () => {
    const log = [
      "Running 120 tests using 2 workers",
      `  ${red("✘")}  12 [api] › e2e/api/x.spec.ts:10:5 › does a thing (1.2s)`,
      "  ✓  13 [api] › e2e/api/y.spec.ts:4:1 › does another (300ms)",
      "",
      `  1) [api] › e2e/api/x.spec.ts:10:5 › does a thing ──────`,
      "",
      "    Error: expect(received).toBe(expected)",
      "",
      "",
      "    Expected: 1",
      "    Received: 2",
      "",
      "  1 failed",
      "    [api] › e2e/api/x.spec.ts:10:5 › does a thing",
      "  2 did not run",
      "  117 passed (3.2m)",
      "",
    ].join("\n");
    expect(failureSummary(log)).toEqual([
      "  1) [api] › e2e/api/x.spec.ts:10:5 › does a thing ──────",
      "",
      "    Error: expect(received).toBe(expected)",
      "",
      "    Expected: 1",
      "    Received: 2",
      "",
      "  1 failed",
      "    [api] › e2e/api/x.spec.ts:10:5 › does a thing",
      "  2 did not run",
      "  117 passed (3.2m)",
    ]);
  });

  it("keeps vitest's failed tests", () => {
    const log = [
      " ✓ lib/a.test.ts (3 tests) 20ms",
      " ❯ lib/b.test.ts (2 tests | 1 failed) 30ms",
      "",
      "⎯⎯⎯⎯⎯⎯⎯ Failed Tests 1 ⎯⎯⎯⎯⎯⎯⎯",
      "",
      " FAIL  lib/b.test.ts > b > adds",
      "AssertionError: expected 3 to be 4",
      "",
      " Test Files  1 failed | 1 passed (2)",
    ].join("\n");
    expect(failureSummary(log)[0]).toBe("⎯⎯⎯⎯⎯⎯⎯ Failed Tests 1 ⎯⎯⎯⎯⎯⎯⎯");
    expect(failureSummary(log)).toContain("AssertionError: expected 3 to be 4");
  });

  it("without a runner's details, names the marked lines and ends with the log's last lines", () => {
    const log = [
      "  ✘  3 [chaos] › e2e/chaos/a.spec.ts:1:1 › x (2s)",
      ...Array.from({ length: 30 }, (_, i) => `l${i}`),
    ];
    const summary = failureSummary(log.join("\n"));
    expect(summary[0]).toContain("e2e/chaos/a.spec.ts");
    expect(summary[1]).toBe("…");
    expect(summary.at(-1)).toBe("l29");
    expect(summary).toHaveLength(22);
  });

  it("stays within its lines, keeping the first error and the count", () => {
    const log = ["  1) [api] › e2e/api/x.spec.ts:1:1 › x", ...Array.from({ length: 200 }, (_, i) => `e${i}`)];
    const summary = failureSummary(log.join("\n"), 20);
    expect(summary).toHaveLength(20);
    expect(summary[0]).toContain("1) [api]");
    expect(summary[14]).toBe("… 182 lines more in the step's log …");
    expect(summary.at(-1)).toBe("e199");
  });
});
