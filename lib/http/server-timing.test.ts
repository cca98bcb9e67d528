import { describe, expect, it } from "vitest";
import { parseServerTiming, ServerTiming } from "./server-timing";

describe("Server-Timing", () => {
  it("names each phase in order and ends with the total", () => {
    const timing = new ServerTiming();
    timing.mark("verify");
    timing.mark("settle");
    const value = timing.header();
    expect(value).toMatch(/^verify;dur=\d+\.\d, settle;dur=\d+\.\d, total;dur=\d+\.\d$/);
    expect(Object.keys(parseServerTiming(value))).toEqual(["verify", "settle", "total"]);
  });

  it("parses other servers' values, skipping metrics without a duration", () => {
    expect(parseServerTiming('cache;desc="hit", db;dur=53, app;dur=47.2;desc="x"')).toEqual({
      db: 53,
      app: 47.2,
    });
    expect(parseServerTiming(null)).toEqual({});
    expect(parseServerTiming("a;dur=abc")).toEqual({});
  });
});
