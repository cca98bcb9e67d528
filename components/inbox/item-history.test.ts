import { describe, expect, it } from "vitest";
import { what } from "./item-history";

const entry = (kind: Parameters<typeof what>[0]["kind"], rest: Partial<Parameters<typeof what>[0]> = {}) => ({
  kind,
  from: null,
  to: null,
  details: null,
  ...rest,
});

describe("an item's history in words", () => {
  it("names a label change as one, never as a status", () => {
    expect(what(entry("labels", { details: { added: ["mobile"], removed: [] } }))).toBe(
      "added the label mobile",
    );
    expect(what(entry("labels", { details: { added: [], removed: ["a", "b"] } }))).toBe(
      "removed the labels a, b",
    );
    // Even with a status beside it (as an old row may carry), a label change is not "set Open".
    expect(what(entry("labels", { from: "open", to: "open", details: null }))).toBe("changed the labels");
  });

  it("names status changes, reopenings and answers", () => {
    expect(what(entry("status", { from: "open", to: "needs_info" }))).toBe("set Needs info");
    expect(what(entry("status", { from: "resolved", to: "open" }))).toBe("reopened as Open");
    expect(what(entry("follow_up", { from: "needs_info", to: "open" }))).toBe(
      "answered, and the item is open again",
    );
  });

  it("names a submitter's answer to a resolution", () => {
    expect(what(entry("confirmation", { details: { outcome: "fixed" } }))).toBe(
      "confirmed the resolution fixed it",
    );
    expect(
      what(entry("confirmation", { from: "resolved", to: "open", details: { outcome: "not_fixed" } })),
    ).toBe("says the resolution did not fix it, and reopened the item");
  });
});
