import { describe, expect, it } from "vitest";
import { formatUsd, microToUsd, parseUsd } from "./money";

describe("USD amounts in the browser", () => {
  it("parses decimal USD exactly, without floats", () => {
    expect(parseUsd("0.1")).toBe(100_000n);
    expect(parseUsd("2")).toBe(2_000_000n);
    expect(parseUsd("0.000001")).toBe(1n);
    expect(parseUsd("1.0000001")).toBeNull();
    expect(parseUsd("-1")).toBeNull();
    expect(parseUsd("1e3")).toBeNull();
    expect(parseUsd("")).toBeNull();
  });

  it("shows amounts with at least two decimals and the currency", () => {
    expect(microToUsd(500_000n)).toBe("0.50");
    expect(microToUsd(1n)).toBe("0.000001");
    expect(formatUsd("1")).toBe("1.00 USD");
    expect(formatUsd("0.01")).toBe("0.01 USD");
    expect(formatUsd(null)).toBe("—");
  });
});
