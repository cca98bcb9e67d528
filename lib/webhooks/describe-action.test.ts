import { describe, expect, it } from "vitest";
import { describeAction } from "./describe-action";
import { describeEvent } from "./describe-event";
import { discordMessage } from "./discord-message";
import { slackMessage } from "./slack-message";

const owner = "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC";
const agent = "0x90F79bf6EB2c4f870365E785982E1f101E93b906";
const at = "2026-11-24T11:00:00.000Z";
const ctx = {
  origin: "https://f.example",
  titles: new Map([
    ["fb_a", "Checkout fails"],
    ["fb_b", "Pay does nothing"],
    ["fb_c", "Cart empties <again>"],
  ]),
};
const envelope = (type: string, data: Record<string, unknown>) => ({
  type,
  timestamp: at,
  data: { namespace: "acme", ...data },
});
const moved = (id: string, from = "open", to = "resolved") =>
  envelope("feedback.status_changed", { id, from, to, message: "Fixed", changedBy: owner, changedAt: at });
const resolved = (id: string, rewardAmount: string | null = null) =>
  envelope("feedback.resolved", { id, resolvedAt: at, resolvedBy: owner, message: "Fixed", rewardAmount });
const paid = (id: string) =>
  envelope("reward.paid", { id, amount: "0.5", recipient: agent, txHash: `0x${"ab".repeat(32)}` });

/** The events of "resolve a group of three with a tip", in the order the resolve queues them. */
const groupWithTip = [
  moved("fb_b"),
  moved("fb_c", "in_progress"),
  resolved("fb_b"),
  resolved("fb_c"),
  moved("fb_a"),
  resolved("fb_a", "0.5"),
  paid("fb_a"),
];

const answered = (type: "feedback.confirmed" | "feedback.disputed", note: string | null) =>
  envelope(type, { id: "fb_a", note, submitter: agent, resolvedAt: at, answeredAt: at });

describe("describeAction: one message for the events of one owner action", () => {
  it("says a reporter's dispute, not the reopening it made, with what still fails", () => {
    const message = describeAction(
      [moved("fb_a", "resolved", "open"), answered("feedback.disputed", "Still broken on Safari")],
      ctx,
    );
    expect(message.headline).toBe("⚠️ Not fixed, says its reporter, in acme: open again");
    expect(message.title).toBe("Checkout fails");
    expect(message.fields).toEqual([
      { name: "What still fails", value: "Still broken on Safari" },
      { name: "Reporter", value: "0x90F7…b906" },
    ]);
    expect(describeAction([answered("feedback.confirmed", null)], ctx)).toMatchObject({
      headline: "👍 Fix confirmed in acme",
      fields: [{ name: "Reporter", value: "0x90F7…b906" }],
    });
  });

  it("describes a single event exactly as before", () => {
    expect(describeAction([resolved("fb_a")], ctx)).toEqual(describeEvent(resolved("fb_a"), ctx));
  });

  it("folds an item's status change into its resolution, and adds the reward's payment", () => {
    const message = describeAction([moved("fb_a"), resolved("fb_a", "0.5"), paid("fb_a")], ctx);
    expect(message.headline).toBe("✅ Resolved in acme");
    expect(message.title).toBe("Checkout fails");
    expect(message.fields).toEqual([
      { name: "Message", value: "Fixed" },
      { name: "Resolved by", value: "0x3C44…93BC" },
      { name: "Reward paid", value: "0.5 USD to 0x90F7…b906" },
      { name: "Transaction", value: `0x${"ab".repeat(32)}` },
    ]);
  });

  it("lists three resolved items, one a line with what changed, in a steady order", () => {
    const message = describeAction(groupWithTip, ctx);
    expect(message.headline).toBe("✅ 3 items resolved in acme");
    expect(message.links).toEqual([
      {
        text: "Cart empties <again>",
        url: "https://f.example/dashboard/acme?status=all&item=fb_c",
        note: "in progress → resolved",
      },
      {
        text: "Checkout fails",
        url: "https://f.example/dashboard/acme?status=all&item=fb_a",
        note: "open → resolved, reward of 0.5 USD paid",
      },
      {
        text: "Pay does nothing",
        url: "https://f.example/dashboard/acme?status=all&item=fb_b",
        note: "open → resolved",
      },
    ]);
    expect(message.fields).toEqual([
      { name: "Message", value: "Fixed" },
      { name: "By", value: "0x3C44…93BC" },
    ]);
    // The same events in another order make the same message.
    expect(describeAction([...groupWithTip].reverse(), ctx).links).toEqual(message.links);
  });

  it("names the status a triage moved every item to, or says they changed", () => {
    const triage = describeAction(
      [moved("fb_a", "open", "needs_info"), moved("fb_b", "open", "needs_info")],
      ctx,
    );
    expect(triage.headline).toBe("🔄 2 items moved to needs info in acme");
    const mixed = describeAction([moved("fb_a", "open", "wont_fix"), moved("fb_b")], ctx);
    expect(mixed.headline).toBe("🔄 2 items changed in acme");
  });

  it("renders as one Slack and one Discord message, escaped, each item a link with its change", () => {
    const slack = slackMessage(describeAction(groupWithTip, ctx));
    expect(slack.text).toBe("✅ 3 items resolved in acme");
    const list = slack.blocks.find((b) => "text" in b && b.text.text.startsWith("•"));
    expect(list && "text" in list ? list.text.text.split("\n") : []).toEqual([
      "• <https://f.example/dashboard/acme?status=all&amp;item=fb_c|Cart empties &lt;again&gt;> — in progress → resolved",
      "• <https://f.example/dashboard/acme?status=all&amp;item=fb_a|Checkout fails> — open → resolved, reward of 0.5 USD paid",
      "• <https://f.example/dashboard/acme?status=all&amp;item=fb_b|Pay does nothing> — open → resolved",
    ]);
    const discord = discordMessage(describeAction(groupWithTip, ctx));
    expect(discord.content).toBe("✅ 3 items resolved in acme");
    expect(discord.embeds[0]!.description?.split("\n")[0]).toBe(
      "[Cart empties \\<again\\>](https://f.example/dashboard/acme?status=all&item=fb_c) — in progress → resolved",
    );
  });

  it("stays within the platforms' limits for an action on a hundred items", () => {
    const titles = new Map(
      Array.from({ length: 100 }, (_, i) => [`fb_${i}`, `${"Long title ".repeat(40)}${i}`]),
    );
    const events = [...titles.keys()].flatMap((id) => [moved(id), resolved(id)]);
    const message = describeAction(events, { ...ctx, titles });
    expect(message.links).toHaveLength(100);
    const slack = slackMessage(message);
    for (const block of slack.blocks) {
      if ("text" in block) expect(block.text.text.length).toBeLessThanOrEqual(3000);
    }
    const list = slack.blocks.flatMap((b) =>
      "text" in b && b.text.text.startsWith("•") ? [b.text.text] : [],
    );
    expect(list[0]!.split("\n").at(-1)).toMatch(/^…and \d+ more$/);
    const embed = discordMessage(message).embeds[0]!;
    expect(embed.description!.length).toBeLessThanOrEqual(4096);
    expect(embed.description!.split("\n").at(-1)).toMatch(/^…and \d+ more$/);
  });
});
