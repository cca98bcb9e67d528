import { describe, expect, it } from "vitest";
import type { ChatMessage } from "./describe-event";
import { describeEvent } from "./describe-event";
import { discordMessage } from "./discord-message";

const ctx = { origin: "https://feedback.example", titles: new Map<string, string>() };
const at = "2026-11-24T10:00:00.000Z";
const created = (title: string) =>
  discordMessage(
    describeEvent(
      {
        type: "feedback.created",
        timestamp: at,
        data: { id: "fb_1", namespace: "acme", type: "bug", title, severity: null, createdAt: at },
      },
      ctx,
    ),
  );
const embedText = (e: ReturnType<typeof discordMessage>["embeds"][number]) =>
  (e.title?.length ?? 0) +
  (e.description?.length ?? 0) +
  e.footer.text.length +
  e.fields.reduce((n, f) => n + f.name.length + f.value.length, 0);

describe("Discord messages", () => {
  it("never parses mentions, and breaks @everyone and @here in the text too", () => {
    const m = created("@everyone look @here now <@123456> <#42>");
    expect(m.allowed_mentions).toEqual({ parse: [] });
    const title = m.embeds[0]!.title!;
    expect(title).not.toMatch(/@everyone|@here/);
    expect(title).toContain("@\u200beveryone");
    expect(title).toContain("\\<@123456\\>");
    expect(title).toContain("\\<\\#42\\>");
  });

  it("escapes markdown, so a title makes no masked link or formatting", () => {
    const title = created("[free money](https://evil.example) **now** `x` ~~y~~ ||z||").embeds[0]!.title!;
    expect(title).toBe(
      "\\[free money\\](https://evil.example) \\*\\*now\\*\\* \\`x\\` \\~\\~y\\~\\~ \\|\\|z\\|\\|",
    );
  });

  it("keeps content to 2,000 characters and the embed's parts within Discord's limits", () => {
    const m = created("_".repeat(5_000));
    expect(m.content).toBe("🐞 New bug in acme");
    const embed = m.embeds[0]!;
    expect(embed.title!.length).toBeLessThanOrEqual(256);
    expect(embed.title!).toMatch(/^(\\_)+…$/);
    expect(embed.url).toBe("https://feedback.example/dashboard/acme?status=all&item=fb_1");
    const long: ChatMessage = {
      headline: "@here ".repeat(1_000),
      title: "t".repeat(1_000),
      url: null,
      fields: Array.from({ length: 30 }, (_, i) => ({ name: `n${i}`.repeat(200), value: "v".repeat(5_000) })),
      links: Array.from({ length: 5 }, (_, i) => ({
        text: "[x]".repeat(2_000),
        url: `https://e.example/${i}`,
      })),
      color: 0,
      at: null,
      footer: "f".repeat(5_000),
    };
    const big = discordMessage(long);
    expect(big.content.length).toBeLessThanOrEqual(2000);
    expect(big.content).not.toContain("@here");
    const e = big.embeds[0]!;
    expect(e.url).toBeUndefined();
    expect(e.fields.length).toBeLessThanOrEqual(25);
    for (const f of e.fields) {
      expect(f.name.length).toBeLessThanOrEqual(256);
      expect(f.value.length).toBeLessThanOrEqual(1024);
    }
    expect(e.footer.text.length).toBeLessThanOrEqual(2048);
    expect(e.description?.length ?? 0).toBeLessThanOrEqual(4096);
    expect(embedText(e)).toBeLessThanOrEqual(6000);
  });

  it("shows a status change with the message the submitter is asked", () => {
    const m = discordMessage(
      describeEvent(
        {
          type: "feedback.status_changed",
          timestamp: at,
          data: {
            id: "fb_9",
            namespace: "acme",
            from: "needs_info",
            to: "open",
            message: null,
            changedBy: "service",
            changedAt: at,
          },
        },
        { ...ctx, titles: new Map([["fb_9", "Dark mode"]]) },
      ),
    );
    expect(m.content).toBe("🔄 needs info → open in acme");
    expect(m.embeds[0]).toMatchObject({
      title: "Dark mode",
      fields: [{ name: "Changed by", value: "service" }],
      footer: { text: "acme · feedback.status_changed" },
      timestamp: at,
    });
  });
});
