import { describe, expect, it } from "vitest";
import { describeEvent } from "./describe-event";
import { slackMessage } from "./slack-message";

const ctx = { origin: "https://feedback.example", titles: new Map([["fb_1", "Login <b>fails</b> & more"]]) };
const at = "2026-11-24T10:00:00.000Z";
const slack = (type: string, data: Record<string, unknown>) =>
  slackMessage(describeEvent({ type, timestamp: at, data }, ctx));
const created = (title: string) =>
  slack("feedback.created", {
    id: "fb_1",
    namespace: "acme",
    type: "bug",
    title,
    severity: "high",
    createdAt: at,
  });
/** Every piece of mrkdwn the message holds, with its limit. */
const texts = (m: ReturnType<typeof slackMessage>) =>
  m.blocks.flatMap((b) =>
    "text" in b
      ? [{ text: b.text.text, max: 3000 }]
      : "fields" in b
        ? b.fields.map((f) => ({ text: f.text, max: 2000 }))
        : b.elements.map((e) => ({ text: e.text, max: 3000 })),
  );

describe("Slack messages", () => {
  it("escapes &, < and > in user text, so a title can make no link or mention", () => {
    const m = created("Crash <!channel> <https://evil.example|click> & co");
    const section = m.blocks[0]!;
    expect("text" in section && section.text.text).toBe(
      "*🐞 New bug in acme*\n<https://feedback.example/dashboard/acme?status=all&amp;item=fb_1|Crash &lt;!channel&gt; &lt;https://evil.example|click&gt; &amp; co>",
    );
    expect(m.text).toBe(
      "🐞 New bug in acme: Crash &lt;!channel&gt; &lt;https://evil.example|click&gt; &amp; co",
    );
    for (const { text } of texts(m)) expect(text).not.toMatch(/<!|<https:\/\/evil/);
  });

  it("names the item by the title looked up at send time, escaped too", () => {
    const m = slack("feedback.status_changed", {
      id: "fb_1",
      namespace: "acme",
      from: "open",
      to: "needs_info",
      message: "Which <browser>?",
      changedBy: "0x00000000000000000000000000000000000000a1",
      changedAt: at,
    });
    expect(m.text).toBe("🔄 open → needs info in acme: Login &lt;b&gt;fails&lt;/b&gt; &amp; more");
    const fields = m.blocks.find((b) => "fields" in b);
    expect(fields && "fields" in fields && fields.fields.map((f) => f.text)).toEqual([
      "*Message*\nWhich &lt;browser&gt;?",
      "*Changed by*\n0x0000…00a1",
    ]);
  });

  it("keeps every block within Slack's limits, cutting long text without breaking an entity", () => {
    const m = slack("feedback.resolved", {
      id: "fb_1",
      namespace: "acme",
      resolvedAt: at,
      resolvedBy: "0x00000000000000000000000000000000000000a1",
      message: "&".repeat(10_000),
      rewardAmount: "0.5",
    });
    for (const { text, max } of texts(m)) expect(text.length).toBeLessThanOrEqual(max);
    const message = texts(m).find((t) => t.text.startsWith("*Message*"))!.text;
    expect(message).toMatch(/^\*Message\*\n(&amp;)+…$/);
    expect(m.text.length).toBeLessThanOrEqual(3000);
    expect(created("x".repeat(50_000)).text.length).toBeLessThanOrEqual(3000);
  });

  it("lists a digest's newest items as links, within one section's limit", () => {
    const newest = Array.from({ length: 5 }, (_, i) => ({
      id: `fb_${i}`,
      type: "feature",
      title: `${"<long> ".repeat(40)}${i}`,
      severity: null,
    }));
    const m = slack("digest.daily", {
      namespace: "acme",
      date: "2026-11-23",
      from: "2026-11-23T00:00:00.000Z",
      to: "2026-11-24T00:00:00.000Z",
      created: { total: 7, bug: 2, feature: 5, feedback: 0 },
      newest,
      statusChanges: {
        total: 3,
        to: {
          open: 0,
          acknowledged: 1,
          needs_info: 0,
          in_progress: 0,
          wont_fix: 0,
          duplicate: 0,
          spam: 0,
          resolved: 2,
        },
      },
      rewards: { count: 1, amount: "0.25" },
    });
    expect(m.text).toBe("📊 Daily digest for acme, 2026-11-23");
    const fields = texts(m).map((t) => t.text);
    expect(fields).toContain("*New items*\n7 (2 bugs, 5 features)");
    expect(fields).toContain("*Status changes*\n3 (1 acknowledged, 2 resolved)");
    expect(fields).toContain("*Rewards paid*\n1 (0.25 USD)");
    const links = fields.find((t) => t.startsWith("• "))!;
    expect(links.length).toBeLessThanOrEqual(3000);
    expect(links.split("\n")).toHaveLength(5);
    expect(links).not.toContain("<long>");
  });
});
