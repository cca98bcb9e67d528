import { describe, expect, it } from "vitest";
import { targetsOf } from "./targets";

describe("targetsOf", () => {
  it("is empty when nothing names a host", () => {
    expect(targetsOf("acme-app", null)).toEqual([]);
    expect(
      targetsOf("acme-app", { count: 3, note: "no url here", nested: { url: "https://x.example" } }),
    ).toEqual([]);
  });

  it("names the namespace when it is a DNS name", () => {
    expect(targetsOf("Docs.Acme.com", null)).toEqual([
      { kind: "domain", value: "docs.acme.com", host: "docs.acme.com" },
    ]);
  });

  it("adds each distinct host of top-level http(s) URLs in metadata", () => {
    expect(
      targetsOf("acme.com", {
        page: "https://acme.com/checkout?x=1",
        api: "http://API.acme.dev:8080/v1",
        ftp: "ftp://files.acme.com",
        bad: "https://",
      }),
    ).toEqual([
      { kind: "domain", value: "acme.com", host: "acme.com" },
      { kind: "domain", value: "api.acme.dev", host: "api.acme.dev" },
    ]);
  });
});
