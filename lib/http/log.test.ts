import { describe, expect, it } from "vitest";
import { describeError } from "./log";

describe("describeError", () => {
  it("keeps the message but never a signature or a base64 header", () => {
    const signature = `0x${"ab".repeat(65)}`;
    const header = "eyJ".padEnd(400, "A");
    const line = describeError(new Error(`call failed: data ${signature} header ${header}`));
    expect(line).toContain("call failed");
    expect(line).not.toContain(signature.slice(0, 80));
    expect(line).not.toContain(header.slice(0, 130));
  });

  it("prefers a client's short message", () => {
    expect(
      describeError({ name: "HttpRequestError", shortMessage: "HTTP request failed.", message: "long" }),
    ).toBe("HttpRequestError: HTTP request failed.");
  });
});
