import { describe, expect, it } from "vitest";
import { readJsonBody } from "./body";
import { AppError } from "./errors";

const post = (body: BodyInit | null, headers: Record<string, string> = {}) =>
  new Request("http://localhost/x", { method: "POST", body, headers });
const json = { "content-type": "application/json" };
const codeOf = (p: Promise<unknown>) =>
  p.then(
    () => "ok",
    (e: unknown) => (e instanceof AppError ? e.code : String(e)),
  );

describe("readJsonBody", () => {
  it("parses a JSON object", async () => {
    expect(await readJsonBody(post('{"a":1}', json))).toEqual({ a: 1 });
  });

  it("refuses another media type, an empty body, bad JSON and a body over the cap", async () => {
    expect(await codeOf(readJsonBody(post("x", { "content-type": "text/plain" })))).toBe(
      "unsupported-media-type",
    );
    expect(await codeOf(readJsonBody(post(null, json)))).toBe("invalid-json");
    expect(await codeOf(readJsonBody(post("  ", json)))).toBe("invalid-json");
    expect(await codeOf(readJsonBody(post("{", json)))).toBe("invalid-json");
    expect(await codeOf(readJsonBody(post('"xxxx"', json), { maxBytes: 4 }))).toBe("payload-too-large");
    expect(
      await codeOf(readJsonBody(post("{}", { ...json, "content-length": "5000" }), { maxBytes: 4 })),
    ).toBe("payload-too-large");
  });

  describe("with a price probe to answer", () => {
    const probe = () => Promise.reject(new AppError("payment-required", "price"));

    it("answers it for a request with no body at all, whatever its headers", async () => {
      expect(await codeOf(readJsonBody(post(null), { whenEmpty: probe }))).toBe("payment-required");
      expect(await codeOf(readJsonBody(post(null, json), { whenEmpty: probe }))).toBe("payment-required");
      expect(
        await codeOf(readJsonBody(post("", { "content-type": "text/plain" }), { whenEmpty: probe })),
      ).toBe("payment-required");
    });

    it("never for a body that is there: invalid input is refused before any price is named", async () => {
      expect(await codeOf(readJsonBody(post("{}", json), { whenEmpty: probe }))).toBe("ok");
      expect(await codeOf(readJsonBody(post(" ", json), { whenEmpty: probe }))).toBe("invalid-json");
      expect(
        await codeOf(readJsonBody(post("x", { "content-type": "text/plain" }), { whenEmpty: probe })),
      ).toBe("unsupported-media-type");
    });

    it("refuses the empty body as usual when the probe lets it through (a credential was sent)", async () => {
      const carriesCredential = async () => {};
      expect(await codeOf(readJsonBody(post(null, json), { whenEmpty: carriesCredential }))).toBe(
        "invalid-json",
      );
      expect(await codeOf(readJsonBody(post(null), { whenEmpty: carriesCredential }))).toBe(
        "unsupported-media-type",
      );
    });
  });
});
