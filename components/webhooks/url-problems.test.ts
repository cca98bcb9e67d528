import { describe, expect, it } from "vitest";
import { maskUrl } from "./url-problems";

const DOTS = "•".repeat(16);

describe("maskUrl", () => {
  it("keeps the origin and first segment of a long path, hiding the rest", () => {
    expect(maskUrl("https://hooks.slack.com/services/T000/B000/XXXX")).toBe(
      `https://hooks.slack.com/services/${DOTS}`,
    );
    expect(maskUrl("https://discord.com/api/webhooks/1/abc")).toBe(`https://discord.com/api/${DOTS}`);
  });

  it("never shows a URL whole beside dots that hide nothing", () => {
    for (const url of [
      "https://hooks.slack.com/services",
      "https://example.com/abc?token=1",
      "https://x.io/a#k",
    ]) {
      const masked = maskUrl(url);
      expect(masked, url).toBe(`${new URL(url).origin}/${DOTS}`);
      expect(masked, url).not.toContain(new URL(url).pathname.slice(1) || "\u0000");
    }
    expect(maskUrl("https://example.com/")).toBe("https://example.com");
  });

  it("hides all of what it cannot read", () => {
    expect(maskUrl("not a url")).toBe("•".repeat(24));
  });
});
