import "server-only";
import type { WebhookFormat } from "@/lib/schemas/webhook";
import { describeAction } from "./describe-action";
import type { DescribeContext } from "./describe-event";
import { discordMessage } from "./discord-message";
import { signatureHeaders } from "./sign";
import { slackMessage } from "./slack-message";

/** What one attempt POSTs: the body and the headers that go with it. */
export type RenderedDelivery = { body: string; headers: Record<string, string> };

/**
 * A stored event as the namespace's format wants it, built at send time, so a new format (like a new
 * URL or secret) applies to retries and re-sends. Standard: the stored JSON, signed the Standard
 * Webhooks way, never with the events folded into it (the worker sends those on their own). Slack and
 * Discord: one chat message for the delivery's event and those folded into it (one owner action);
 * unsigned, since neither could verify a signature.
 */
export function renderDelivery(
  format: WebhookFormat,
  delivery: { id: string; payload: Record<string, unknown> },
  secret: string,
  context: DescribeContext,
  folded: Record<string, unknown>[] = [],
): RenderedDelivery {
  if (format === "standard") {
    const body = JSON.stringify(delivery.payload);
    return { body, headers: signatureHeaders(secret, delivery.id, body) };
  }
  const message = describeAction([delivery.payload, ...folded], context);
  return {
    body: JSON.stringify(format === "slack" ? slackMessage(message) : discordMessage(message)),
    headers: {},
  };
}
