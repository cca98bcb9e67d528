import { describe, expect, expectTypeOf, it } from "vitest";
import { CSV_COLUMNS, CSV_HEADER, csvCell, csvLine } from "./export-format";
import type { presentFields, presentGrouping } from "./present";

describe("the CSV export's columns", () => {
  it("are the JSON export's fields, every one and no other", () => {
    type Exported =
      | keyof ReturnType<typeof presentFields>
      | keyof ReturnType<typeof presentGrouping>
      | "context";
    expectTypeOf<(typeof CSV_COLUMNS)[number]>().toEqualTypeOf<Exported>();
    expect(new Set(CSV_COLUMNS).size).toBe(CSV_COLUMNS.length);
  });
});

describe("CSV export cells", () => {
  it("quotes what would break a row and doubles quotes", () => {
    expect(csvCell("plain")).toBe("plain");
    expect(csvCell('say "hi", then')).toBe('"say ""hi"", then"');
    expect(csvCell("two\nlines")).toBe('"two\nlines"');
    expect(csvCell("  padded ")).toBe('"  padded "');
  });

  it("defuses every cell a spreadsheet would run as a formula", () => {
    for (const attack of ['=HYPERLINK("http://x")', "+1+1", "-2+3", "@SUM(A1)", "\t=1", "\r=1"]) {
      const cell = csvCell(attack);
      expect(cell.replace(/^"/, "").startsWith("'"), attack).toBe(true);
    }
    expect(csvCell("a=b")).toBe("a=b");
  });

  it("defuses a formula behind leading spaces or line breaks, and the full-width signs", () => {
    const attacks = [
      "  =1+1",
      "\n=1+1",
      " \r\n@SUM(A1)",
      "\u00a0-2+3",
      "\u3000+1",
      "＝1+1",
      "＋1",
      "－1",
      "＠SUM(A1)",
      " ＝1",
    ];
    for (const attack of attacks) {
      expect(csvCell(attack).replace(/^"/, "").startsWith("'"), JSON.stringify(attack)).toBe(true);
    }
    expect(csvCell("  plain")).toBe('"  plain"');
    expect(csvCell("5－3")).toBe("5－3");
  });

  it("writes lists and objects as JSON, null as empty, booleans as words", () => {
    expect(csvCell(["Open", "Save"])).toBe('"[""Open"",""Save""]"');
    expect(csvCell(null)).toBe("");
    expect(csvCell(true)).toBe("true");
  });

  it("ends lines with CRLF and opens the file with a BOM and the header", () => {
    expect(csvLine(["a", 1, null])).toBe("a,1,\r\n");
    expect(CSV_HEADER.startsWith("\uFEFFid,namespace,type,status,")).toBe(true);
    expect(CSV_HEADER.split(",")).toHaveLength(CSV_COLUMNS.length);
  });
});
