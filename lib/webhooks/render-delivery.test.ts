import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { renderDelivery } from "./render-delivery";
import { newWebhookSecret } from "./sign";

const payload = {
  type: "webhook.test",
  timestamp: "2026-11-24T10:00:00.000Z",
  data: { namespace: "acme", message: "Hello <there>" },
};
const ctx = { origin: "https://f.example", titles: new Map<string, string>() };

describe("renderDelivery", () => {
  it("sends the stored event, signed, in the standard format", () => {
    const secret = newWebhookSecret();
    const { body, headers } = renderDelivery("standard", { id: "msg_1", payload }, secret, ctx);
    expect(JSON.parse(body)).toEqual(payload);
    expect(new Webhook(secret).verify(body, headers)).toEqual(payload);
    expect(headers["webhook-id"]).toBe("msg_1");
  });

  it("sends Slack and Discord messages unsigned, built from the same event", () => {
    const slack = renderDelivery("slack", { id: "msg_1", payload }, newWebhookSecret(), ctx);
    expect(slack.headers).toEqual({});
    expect(JSON.parse(slack.body)).toMatchObject({ text: "🔔 Test message from acme" });
    expect(slack.body).toContain("Hello &lt;there&gt;");
    const discord = renderDelivery("discord", { id: "msg_1", payload }, newWebhookSecret(), ctx);
    expect(discord.headers).toEqual({});
    expect(JSON.parse(discord.body)).toMatchObject({
      content: "🔔 Test message from acme",
      allowed_mentions: { parse: [] },
      embeds: [{ fields: [{ name: "Message", value: "Hello \\<there\\>" }] }],
    });
  });
});
