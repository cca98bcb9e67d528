import { describe, expect, it } from "vitest";
import { AppError } from "@/lib/http/errors";
import { parseInput } from "@/lib/http/validate";
import { submitFeedbackSchema } from "./feedback";
import { listQuerySchema } from "./list";
import { registerNamespaceSchema } from "./namespace";
import { resolveFeedbackSchema } from "./resolve";

const s = (n: number) => "x".repeat(n);
const base = { namespace: "acme-app", type: "bug", title: "Title", description: "A description." };

function fieldsRefused(schema: Parameters<typeof parseInput>[0], input: unknown): string[] {
  try {
    parseInput(schema, input);
    return [];
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    expect(error.status).toBe(400);
    return (error.extra.errors ?? []).map((e) => e.field);
  }
}

// Each limit of contract section 8: accepted at the limit, refused one past it, naming the field.
const feedbackLimits: Array<[string, unknown, unknown]> = [
  ["namespace", s(3), s(2)],
  ["namespace", s(30), s(31)],
  ["title", s(3), s(2)],
  ["title", s(200), s(201)],
  ["description", s(10), s(9)],
  ["description", s(10_000), s(10_001)],
  ["steps", Array(20).fill("step"), Array(21).fill("step")],
  ["steps", [s(500)], [s(501)]],
  ["expected", s(2000), s(2001)],
  ["actual", s(2000), s(2001)],
  ["context", s(50_000), s(50_001)],
  ["type", "feature", "question"],
  ["severity", "critical", "urgent"],
  ["metadata", { any: ["thing", 1, null] }, ["not", "an", "object"]],
];

describe("submit limits", () => {
  it.each(feedbackLimits)("%s: accepted at the limit, refused one past it", (field, ok, bad) => {
    expect(fieldsRefused(submitFeedbackSchema, { ...base, [field]: ok })).toEqual([]);
    expect(fieldsRefused(submitFeedbackSchema, { ...base, [field]: bad })[0]).toMatch(
      new RegExp(`^${field}`),
    );
  });

  it("names every missing required field at once", () => {
    expect(fieldsRefused(submitFeedbackSchema, {}).sort()).toEqual([
      "description",
      "namespace",
      "title",
      "type",
    ]);
  });

  it("treats null optional fields as not supplied and refuses unknown fields by name", () => {
    expect(parseInput(submitFeedbackSchema, { ...base, severity: null, steps: null })).toMatchObject({
      severity: null,
      steps: null,
      metadata: null,
    });
    expect(fieldsRefused(submitFeedbackSchema, { ...base, severty: "low" })).toEqual(["severty"]);
  });

  it("counts characters, not UTF-16 units", () => {
    expect(fieldsRefused(submitFeedbackSchema, { ...base, title: "😀".repeat(200) })).toEqual([]);
  });
});

describe("register limits", () => {
  it.each([
    ["abc", true],
    [s(30), true],
    ["a-b", true],
    ["ab", false],
    [s(31), false],
    ["-ab", false],
    ["ab-", false],
    ["Abc", false],
    ["a_b", false],
    ["acme.com", false],
  ])("namespace %s → %s", (namespace, ok) => {
    expect(fieldsRefused(registerNamespaceSchema, { namespace })).toEqual(ok ? [] : ["namespace"]);
  });

  it("bounds the description and wants an http(s) webhook", () => {
    expect(fieldsRefused(registerNamespaceSchema, { namespace: "abc", description: s(500) })).toEqual([]);
    expect(fieldsRefused(registerNamespaceSchema, { namespace: "abc", description: s(501) })).toEqual([
      "description",
    ]);
    expect(
      fieldsRefused(registerNamespaceSchema, { namespace: "abc", webhookUrl: "https://h.example/x" }),
    ).toEqual([]);
    expect(
      fieldsRefused(registerNamespaceSchema, { namespace: "abc", webhookUrl: "ftp://h.example" }),
    ).toEqual(["webhookUrl"]);
  });
});

describe("resolve and list limits", () => {
  it("bounds message and feedbackId", () => {
    expect(fieldsRefused(resolveFeedbackSchema, { feedbackId: "f", message: s(2000) })).toEqual([]);
    expect(fieldsRefused(resolveFeedbackSchema, { feedbackId: "f", message: s(2001) })).toEqual(["message"]);
    expect(fieldsRefused(resolveFeedbackSchema, { feedbackId: "" })).toEqual(["feedbackId"]);
    expect(fieldsRefused(resolveFeedbackSchema, { feedbackId: "f", rewardAmount: "1e2" })).toEqual([
      "rewardAmount",
    ]);
  });

  it("bounds limit to 1..100 with a default of 50", () => {
    expect(parseInput(listQuerySchema, { namespace: "abc" }).limit).toBe(50);
    expect(fieldsRefused(listQuerySchema, { namespace: "abc", limit: "100" })).toEqual([]);
    expect(fieldsRefused(listQuerySchema, { namespace: "abc", limit: "101" })).toEqual(["limit"]);
    expect(fieldsRefused(listQuerySchema, { namespace: "abc", limit: "0" })).toEqual(["limit"]);
    expect(fieldsRefused(listQuerySchema, { namespace: "abc", limit: "ten" })).toEqual(["limit"]);
  });
});
