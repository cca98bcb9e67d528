import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { AppError, type FieldError } from "@/lib/http/errors";
import { parseInput } from "@/lib/http/validate";
import { invalidSubmitBody, normalised, validSubmitBody } from "@/testing/feedback-arbitraries";
import { submitFeedbackSchema } from "./feedback";

/** The fields a refusal names, or null when the body was accepted. */
function refusal(body: unknown): FieldError[] | null {
  try {
    parseInput(submitFeedbackSchema, body);
    return null;
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    expect(error.status).toBe(400);
    return error.extra.errors ?? [];
  }
}

// Bodies travel as JSON: each property is checked on what JSON.parse gives the route.
const overTheWire = (body: unknown) => JSON.parse(JSON.stringify(body));

describe("submit schema, property-based", () => {
  it("accepts every valid body and gives back exactly what was sent", () => {
    fc.assert(
      fc.property(validSubmitBody, (body) => {
        const wire = overTheWire(body);
        // No callback or known issue was named (the arbitraries send neither: both are checked when paid for).
        expect(parseInput(submitFeedbackSchema, wire)).toEqual({
          ...normalised(wire),
          callbackUrl: null,
          duplicateOf: null,
        });
      }),
      { numRuns: 300 },
    );
  });

  it("refuses every one-fault mutation with a 400 naming the faulty field, and only that field", () => {
    fc.assert(
      fc.property(invalidSubmitBody, ({ body, field, what }) => {
        const errors = refusal(overTheWire(body));
        expect(errors, what).not.toBeNull();
        expect(errors!.length, what).toBeGreaterThan(0);
        for (const e of errors!) {
          expect(e.field === field || e.field.startsWith(`${field}.`), `${what}: ${e.field}`).toBe(true);
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe("submit schema, hardening examples", () => {
  const base = { namespace: "acme-app", type: "bug", title: "Title", description: "A description." };
  const fields = (body: unknown) => (refusal(body) ?? []).map((e) => e.field);

  it("names the metadata path of a forbidden key, at any depth, even __proto__ from JSON", () => {
    const body = JSON.parse(
      '{"namespace":"acme-app","type":"bug","title":"Title","description":"A description.",' +
        '"metadata":{"a":{"b":{"__proto__":{"polluted":true}}},"constructor":1}}',
    );
    expect(fields(body).sort()).toEqual(["metadata.a.b.__proto__", "metadata.constructor"]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("keeps line breaks and tabs in multi-line fields and refuses them in single-line ones", () => {
    expect(fields({ ...base, description: "Line one\r\n\tline two" })).toEqual([]);
    expect(fields({ ...base, title: "Two\nlines" })).toEqual(["title"]);
    expect(fields({ ...base, namespace: "acme\tapp" })).toEqual(["namespace"]);
  });

  it("refuses NUL and unpaired surrogates everywhere, but keeps paired ones", () => {
    expect(fields({ ...base, context: "a\u0000b" })).toEqual(["context"]);
    expect(fields({ ...base, description: "A description \ud83d" })).toEqual(["description"]);
    expect(fields({ ...base, description: "A description 😀" })).toEqual([]);
    expect(fields({ ...base, metadata: { "k\u0000": 1 } })).toEqual(["metadata"]);
  });

  it("caps metadata depth, key count and size, naming metadata", () => {
    let deep: unknown = 1;
    for (let i = 0; i < 8; i++) deep = { d: deep };
    expect(fields({ ...base, metadata: deep })).toEqual([]);
    expect(fields({ ...base, metadata: { d: deep } })[0]).toMatch(/^metadata\.d\.d/);
    expect(fields({ ...base, metadata: { big: "x".repeat(16_000) } })).toEqual([]);
    expect(fields({ ...base, metadata: { big: "x".repeat(16_400) } })).toEqual(["metadata"]);
  });
});
