import { describe, expect, it } from "vitest";
import { isNarrowed, listEnd } from "./view-counts";

const open = { status: "open" } as const;
const rows = (...resolved: boolean[]) => resolved.map((r) => ({ resolved: r }));

describe("the counts of an inbox view", () => {
  it("counts rows, as the tabs do, and names the rows resolved in place apart", () => {
    expect(listEnd(rows(false, false), open)).toBe("2 rows, duplicates grouped · that is all");
    expect(listEnd(rows(false, true, true), open)).toBe(
      "1 row (and 2 resolved since the list loaded), duplicates grouped · that is all",
    );
    expect(listEnd(rows(true, false), { status: "all" })).toBe("2 rows, duplicates grouped · that is all");
    expect(listEnd(rows(true, false), { status: "resolved" })).toBe(
      "1 row (and 1 reopened since the list loaded), duplicates grouped · that is all",
    );
  });

  it("says the rows match when a search or filter narrows the view, which the tabs then do not count", () => {
    expect(listEnd(rows(false, false, false), { ...open, q: "crash" })).toBe(
      "3 rows match, duplicates grouped · that is all",
    );
    expect(isNarrowed({ ...open, type: "bug" })).toBe(false);
    expect(isNarrowed({ status: "resolved" })).toBe(false);
    for (const narrower of [
      { q: "x" },
      { severity: "high" },
      { stage: "in_progress" },
      { label: "l" },
      { answer: "confirmed" },
    ] as const) {
      expect(isNarrowed({ ...open, ...narrower })).toBe(true);
    }
  });
});
