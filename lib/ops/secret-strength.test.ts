import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { estimatedRandomBits, SECRET_BITS_REQUIRED } from "./secret-strength";

describe("a secret's estimated random bits", () => {
  it("passes 32 random bytes as hex, base64 or base64url, every time", () => {
    for (let n = 0; n < 200; n++) {
      const bytes = randomBytes(32);
      for (const encoding of ["hex", "base64", "base64url"] as const) {
        expect(estimatedRandomBits(bytes.toString(encoding)), encoding).toBeGreaterThanOrEqual(
          SECRET_BITS_REQUIRED,
        );
      }
    }
  });

  it("refuses what a person chooses, a repeat, or fewer random bytes, however long", () => {
    for (const chosen of [
      "correct horse battery staple, my feedback service secret",
      "passwordpasswordpasswordpassword",
      "a".repeat(80),
      "0123456789abcdef0123456789abcdef",
      randomBytes(16).toString("hex"),
      randomBytes(20).toString("base64url"),
    ]) {
      expect(estimatedRandomBits(chosen), chosen).toBeLessThan(SECRET_BITS_REQUIRED);
    }
  });
});
