import { describe, expect, it } from "vitest";
import { usdLabel } from "./api-client/money";
import { formatUsd, formatUsdForPeople, parseUsd, toAssetUnits } from "./money";

describe("USD amounts", () => {
  it("parses decimal USD exactly, without floats", () => {
    expect(parseUsd("0.1")).toBe(100_000n);
    expect(parseUsd("2")).toBe(2_000_000n);
    expect(parseUsd("0.000001")).toBe(1n);
    expect(parseUsd("2.0000001")).toBeNull();
    expect(parseUsd("-1")).toBeNull();
    expect(parseUsd("1e3")).toBeNull();
    expect(parseUsd(" 1")).toBeNull();
    expect(parseUsd("")).toBeNull();
  });

  it("writes amounts for the API without trailing zeros, and for people with two decimals", () => {
    expect(formatUsd(10_000n)).toBe("0.01");
    expect(formatUsd(1_500_000n)).toBe("1.5");
    expect(formatUsd(2_000_000n)).toBe("2");
    expect(formatUsdForPeople(500_000n)).toBe("0.50");
    expect(formatUsdForPeople(1n)).toBe("0.000001");
    expect(usdLabel("1")).toBe("1.00 USD");
    expect(usdLabel(" 0.01 ")).toBe("0.01 USD");
    expect(usdLabel(null)).toBe("—");
  });

  it("converts to an asset's base units", () => {
    expect(toAssetUnits(10_000n, 6)).toBe(10_000n);
    expect(toAssetUnits(10_000n, 18)).toBe(10_000_000_000_000_000n);
    expect(toAssetUnits(10_000n, 2)).toBe(1n);
  });
});
