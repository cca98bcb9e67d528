import { describe, expect } from "vitest";
import { ALIKE_PAIRS } from "@/testing/alike-pairs";
import { measureAlike } from "@/testing/measure-alike";
import { rolledBack } from "@/testing/rollback";

// The automatic suggestion, measured on labelled pairs through the real grouping statement: it must be
// right when it suggests (precision), at the cost of missing paraphrases (recall, reported by the bench).
describe("what the service calls alike", () => {
  rolledBack(
    "suggests at least 95% correctly on the labelled pairs, and none of the issue's near misses",
    async (db) => {
      const result = await measureAlike(db, ALIKE_PAIRS);
      expect(result.suggested).toBeGreaterThan(0);
      expect(result.precision).toBeGreaterThanOrEqual(0.95);
    },
    120_000,
  );

  rolledBack("keeps apart reports that differ in what they name, and joins repeats", async (db) => {
    const report = (title: string, description = "Steps and details are the same in both reports.") => ({
      type: "bug" as const,
      title,
      description,
    });
    const near = [
      ["Login fails on Safari", "Login fails on Chrome"],
      ["Crash when uploading PNG", "Crash when uploading PDF"],
      ["API /v1/users returns 500", "API /v1/orders returns 500"],
      ["reward item 1", "reward item 2"],
    ].map(([a, b]) => ({ a: report(a!), b: report(b!), same: false, note: "near miss" }));
    const repeat = {
      a: report("Checkout button does nothing", "Clicking Pay on /checkout sends no request."),
      b: report("The checkout button does nothing", "Clicking Pay on /checkout sends no request at all."),
      same: true,
      note: "a retry",
    };
    const result = await measureAlike(db, [...near, repeat]);
    expect(result.wrong).toEqual([]);
  });
});
