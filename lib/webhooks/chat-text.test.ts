import { describe, expect, it } from "vitest";
import { clip, escapeDiscord, escapeSlack, neutraliseMentions } from "./chat-text";
import { describeEvent } from "./describe-event";

describe("clip", () => {
  it("leaves text that fits, escaped", () => {
    expect(clip("a<b", 10, escapeSlack)).toBe("a&lt;b");
  });

  it("cuts between code points and never inside an escape", () => {
    expect(clip("😀😀😀", 5)).toBe("😀😀…");
    expect(clip("a&b&c", 8, escapeSlack)).toBe("a&amp;b…");
    expect(clip("a&b&c", 7, escapeSlack)).toBe("a&amp;…");
    expect(clip("a&b&c", 6, escapeSlack)).toBe("a…");
    expect(clip("**", 3, escapeDiscord)).toBe("\\*…");
  });
});

describe("neutraliseMentions", () => {
  it("breaks @everyone and @here, in any case, and nothing else", () => {
    expect(neutraliseMentions("@everyone @HERE a@b.example")).toBe("@\u200beveryone @\u200bHERE a@b.example");
  });
});

describe("describeEvent", () => {
  it("describes an event it does not know, or a malformed one, without failing", () => {
    const ctx = { origin: "https://f.example", titles: new Map<string, string>() };
    expect(describeEvent({ type: "feedback.exploded", data: { namespace: "acme" } }, ctx)).toMatchObject({
      headline: "feedback.exploded in acme",
      title: null,
      fields: [],
    });
    expect(describeEvent({ type: "reward.paid", data: {} }, ctx).headline).toBe(
      "reward.paid in your namespace",
    );
    expect(describeEvent(null, ctx).headline).toBe("An event in your namespace");
  });
});
