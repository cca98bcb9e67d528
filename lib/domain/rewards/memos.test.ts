import { hexToString, size } from "viem";
import { describe, expect, it } from "vitest";
import { refundMemo, rewardMemo } from "./memos";

describe("transfer memos", () => {
  it("spell out the item or the payment when it fits in 32 bytes", () => {
    expect(hexToString(rewardMemo("fb_8Zq2X0b3VrYwqJm1kS4d1A"), { size: 32 })).toBe(
      "reward:fb_8Zq2X0b3VrYwqJm1kS4d1A",
    );
    expect(hexToString(refundMemo("pay_Hq7Yb2Wc0Xv9Zr4L"), { size: 32 })).toBe("refund:pay_Hq7Yb2Wc0Xv9Zr4L");
  });

  it("keep the prefix and hash the rest of a longer id, so two ids never share a memo", () => {
    const [a, b] = [refundMemo(`pay_${"x".repeat(40)}a`), refundMemo(`pay_${"x".repeat(40)}b`)];
    expect(size(a)).toBe(32);
    expect(hexToString(a).startsWith("refund:")).toBe(true);
    expect(a).not.toBe(b);
  });
});
