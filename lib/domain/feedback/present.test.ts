import { describe, expect, it } from "vitest";
import { shortTitle } from "./present";

describe("shortTitle", () => {
  it("keeps titles of up to 80 characters", () => {
    const eighty = "a".repeat(80);
    expect(shortTitle(eighty)).toBe(eighty);
  });

  it("cuts longer titles to 77 characters plus an ellipsis", () => {
    const cut = shortTitle("b".repeat(81));
    expect(cut).toBe(`${"b".repeat(77)}...`);
    expect(cut).toHaveLength(80);
  });

  it("never splits a character made of two UTF-16 units", () => {
    expect(shortTitle("😀".repeat(100))).toBe(`${"😀".repeat(77)}...`);
  });
});
