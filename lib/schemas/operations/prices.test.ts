import { describe, expect, it } from "vitest";
import { formatUsd, parseUsd, toAssetUnits } from "@/lib/money";
import { OPERATIONS } from "@/lib/schemas/operations/catalog";

describe("USD amounts", () => {
  it("prices the two fixed calls in micro-USD", () => {
    expect(formatUsd(OPERATIONS.register.price)).toBe("1");
    expect(formatUsd(OPERATIONS.feedback.price)).toBe("0.01");
  });

  it("parses decimal strings exactly, without floats", () => {
    expect(parseUsd("0")).toBe(0n);
    expect(parseUsd("0.000001")).toBe(1n);
    expect(parseUsd("2")).toBe(2_000_000n);
    expect(parseUsd("1.5")).toBe(1_500_000n);
    expect(parseUsd("0.1")! + parseUsd("0.2")!).toBe(parseUsd("0.3"));
  });

  it("refuses what is not a plain decimal of at most 6 places", () => {
    for (const bad of ["", "-1", "1e3", "0.0000001", ".5", "1.", " 1", "0x10", "1,5", "NaN"]) {
      expect(parseUsd(bad), bad).toBeNull();
    }
  });

  it("converts to an asset's base units", () => {
    expect(toAssetUnits(10_000n, 6)).toBe(10_000n);
    expect(toAssetUnits(10_000n, 18)).toBe(10_000_000_000_000_000n);
  });
});
