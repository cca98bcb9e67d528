import { describe, expect, it } from "vitest";
import { highlight, START, STOP } from "./highlight";

describe("search highlights", () => {
  it("splits the words full-text search marked", () => {
    expect(highlight(`The app ${START}crashes${STOP} on ${START}save${STOP}`, "crash save")).toEqual([
      { text: "The app ", match: false },
      { text: "crashes", match: true },
      { text: " on ", match: false },
      { text: "save", match: true },
    ]);
  });

  it("falls back to literal occurrences, case-insensitively", () => {
    expect(highlight("Error E_42x and e_42X", "e_42x")).toEqual([
      { text: "Error ", match: false },
      { text: "E_42x", match: true },
      { text: " and ", match: false },
      { text: "e_42X", match: true },
    ]);
  });

  it("gives the whole text unmarked when nothing matched", () => {
    expect(highlight("Nothing here", "zzz")).toEqual([{ text: "Nothing here", match: false }]);
  });

  it("never loses or adds a character", () => {
    const text = `a${START}b${STOP}c${START}d`;
    expect(
      highlight(text, "b")
        .map((f) => f.text)
        .join(""),
    ).toBe("abcd");
  });
});
