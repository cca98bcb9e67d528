import { describe, expect, it } from "vitest";
import { decodeCursor, encodeCursor } from "./cursor";

const at = { createdAt: new Date("2026-11-21T10:00:00.123Z"), id: "fb_abc" };

describe("cursors", () => {
  it("round-trips a position for the same query", () => {
    expect(decodeCursor(encodeCursor(at, "list\nacme"), "list\nacme")).toEqual(at);
  });

  it("refuses a cursor from another query", () => {
    expect(() => decodeCursor(encodeCursor(at, "list\nacme"), "list\nother")).toThrow(/cursor/);
  });

  it("refuses a tampered cursor", () => {
    const cursor = encodeCursor(at, "s");
    const [payload, tag] = cursor.split(".");
    const forged = Buffer.from(JSON.stringify([0, "fb_zzz"])).toString("base64url");
    expect(() => decodeCursor(`${forged}.${tag}`, "s")).toThrow(/cursor/);
    expect(() => decodeCursor(`${payload}.${tag}x`, "s")).toThrow(/cursor/);
    expect(() => decodeCursor("garbage", "s")).toThrow(/cursor/);
  });
});
