import { describe, expect, it } from "vitest";
import { NO_SELECTION, pickRow, type Selection } from "./selection";

const ORDER = ["a", "b", "c", "d", "e"];
const clicks = (steps: [string, boolean][], start: Selection = NO_SELECTION, order = ORDER) =>
  steps.reduce((state, [id, range]) => pickRow(state, order, id, range), start);
const picked = (s: Selection) => [...s.picked].sort();

describe("picking inbox rows", () => {
  it("toggles one row per click and ranges from the last click with shift", () => {
    expect(picked(clicks([["b", false]]))).toEqual(["b"]);
    expect(
      picked(
        clicks([
          ["b", false],
          ["d", true],
        ]),
      ),
    ).toEqual(["b", "c", "d"]);
    expect(
      picked(
        clicks([
          ["d", false],
          ["a", true],
        ]),
      ),
    ).toEqual(["a", "b", "c", "d"]);
    expect(
      picked(
        clicks([
          ["b", false],
          ["b", false],
        ]),
      ),
    ).toEqual([]);
  });

  it("ranges again after Clear: the first click after it anchors the next range", () => {
    const before = clicks([
      ["a", false],
      ["c", true],
    ]);
    const cleared = NO_SELECTION;
    expect(picked(before)).toEqual(["a", "b", "c"]);
    expect(
      picked(
        clicks(
          [
            ["b", false],
            ["e", true],
          ],
          cleared,
        ),
      ),
    ).toEqual(["b", "c", "d", "e"]);
  });

  it("ranges after a bulk action has changed the rows, from a click on the new rows", () => {
    const afterBulk = clicks([
      ["a", false],
      ["c", true],
    ]);
    const rows = ["c", "d", "e", "f"];
    // The anchor ("c") is still listed: the range runs from it.
    expect(picked(clicks([["e", true]], { picked: new Set(), anchor: "c" }, rows))).toEqual(["c", "d", "e"]);
    // The anchor left the view: a shift-click picks just its row, and anchors the next range.
    const gone = clicks(
      [
        ["e", true],
        ["c", true],
      ],
      { picked: new Set(), anchor: "a" },
      rows,
    );
    expect(picked(gone)).toEqual(["c", "d", "e"]);
    expect(afterBulk.anchor).toBe("c");
  });

  it("unpicks a range when the shift-clicked row was picked", () => {
    const all = clicks([
      ["a", false],
      ["e", true],
    ]);
    expect(picked(clicks([["d", true]], { ...all, anchor: "b" }))).toEqual(["a", "e"]);
  });
});
