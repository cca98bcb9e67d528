import { z } from "zod";
import { chars, line, pageLimit } from "./text";
import { WEBHOOK_EVENTS } from "./webhook-events";

const namespace = chars(3, 30);

/** How deliveries are written: signed Standard Webhooks JSON (the default), or a Slack or Discord message. */
export const WEBHOOK_FORMATS = ["standard", "slack", "discord"] as const;
export type WebhookFormat = (typeof WEBHOOK_FORMATS)[number];
/** "daily" adds one summary message a day; per-event messages follow `events` either way. */
export const WEBHOOK_DIGESTS = ["off", "daily"] as const;
export type WebhookDigest = (typeof WEBHOOK_DIGESTS)[number];

/** Query of GET /api/namespace/webhook. */
export const webhookQuerySchema = z.strictObject({ namespace });

/**
 * Body of PATCH /api/namespace/webhook: any of the URL (null stops sending), the message format, the
 * events to send and the daily digest; a field left out keeps its value.
 */
export const updateWebhookSchema = z.strictObject({
  namespace,
  url: z
    .url({ protocol: /^https?$/, error: "must be an http(s) URL" })
    .max(2048)
    .nullable()
    .optional(),
  format: z.enum(WEBHOOK_FORMATS, { error: `must be one of ${WEBHOOK_FORMATS.join(", ")}` }).optional(),
  events: z
    .array(z.enum(WEBHOOK_EVENTS, { error: `must be one of ${WEBHOOK_EVENTS.join(", ")}` }))
    // Stored once each, in the order of WEBHOOK_EVENTS; an empty list sends no per-event messages.
    .transform((chosen) => WEBHOOK_EVENTS.filter((e) => chosen.includes(e)))
    .optional(),
  digest: z.enum(WEBHOOK_DIGESTS, { error: `must be one of ${WEBHOOK_DIGESTS.join(", ")}` }).optional(),
});
export type UpdateWebhookInput = z.output<typeof updateWebhookSchema>;

/** Body of POST /api/namespace/webhook/rotate and /api/namespace/webhook/test. */
export const webhookNamespaceSchema = z.strictObject({ namespace });

/** Body of POST /api/namespace/webhook/deliveries/resend: one delivery of the log, by its id. */
export const resendDeliverySchema = z.strictObject({ namespace, id: line(1, 100) });
export type ResendDeliveryInput = z.output<typeof resendDeliverySchema>;

/** Query of GET /api/namespace/webhook/deliveries. */
export const webhookDeliveriesQuerySchema = z.strictObject({
  namespace,
  limit: pageLimit(20),
});
export type WebhookDeliveriesQuery = z.output<typeof webhookDeliveriesQuerySchema>;
