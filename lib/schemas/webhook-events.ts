import { z } from "zod";
import { FEEDBACK_TYPES, SEVERITIES } from "./feedback";

// What a namespace's webhook receives. The outbox is typed by these shapes, and the OpenAPI document
// publishes them (its `webhooks` section), so receivers and senders cannot drift apart.

const timestamp = z.string().meta({ description: "ISO 8601 UTC timestamp with milliseconds" });
const usd = z.string().meta({ description: 'USD as a decimal string, e.g. "0.5"' });

/** The events a namespace's webhook is subscribed to (every one; `webhook.test` only on request). */
export const WEBHOOK_EVENTS = ["feedback.created", "feedback.resolved", "reward.paid"] as const;

export const webhookEventData = {
  "feedback.created": z
    .strictObject({
      id: z.string(),
      namespace: z.string(),
      type: z.enum(FEEDBACK_TYPES),
      title: z.string(),
      severity: z.enum(SEVERITIES).nullable(),
      createdAt: timestamp,
    })
    .meta({ description: "A paid item arrived in a registered namespace." }),
  "feedback.resolved": z
    .strictObject({
      id: z.string(),
      namespace: z.string(),
      resolvedAt: timestamp,
      resolvedBy: z.string(),
      message: z.string().nullable(),
      rewardAmount: usd.nullable(),
    })
    .meta({
      description: "The owner resolved an item; rewardAmount is set when the resolve carried a reward.",
    }),
  "reward.paid": z
    .strictObject({
      id: z.string(),
      namespace: z.string(),
      amount: usd,
      recipient: z.string(),
      txHash: z.string(),
    })
    .meta({ description: "A reward reached the submitter's wallet on Tempo (sent once per reward)." }),
  "webhook.test": z
    .strictObject({ namespace: z.string(), message: z.string() })
    .meta({ description: "Sent on request from the dashboard or POST /api/namespace/webhook/test." }),
} as const;

export type WebhookEventType = keyof typeof webhookEventData;
export type WebhookEventDataOf<T extends WebhookEventType> = z.input<(typeof webhookEventData)[T]>;

/** The JSON body of every delivery: the event's type, when it happened, and its data. */
export function webhookEnvelopeSchema<T extends WebhookEventType>(type: T) {
  return z.strictObject({ type: z.literal(type), timestamp, data: webhookEventData[type] });
}
