import { z } from "zod";
import { chars } from "./text";

const namespace = chars(3, 30);

/** Query of GET /api/namespace/webhook. */
export const webhookQuerySchema = z.strictObject({ namespace });

/** Body of PATCH /api/namespace/webhook: a new URL, or null to stop sending. */
export const updateWebhookSchema = z.strictObject({
  namespace,
  url: z
    .url({ protocol: /^https?$/, error: "must be an http(s) URL" })
    .max(2048)
    .nullable(),
});
export type UpdateWebhookInput = z.output<typeof updateWebhookSchema>;

/** Body of POST /api/namespace/webhook/rotate and /api/namespace/webhook/test. */
export const webhookNamespaceSchema = z.strictObject({ namespace });

/** Query of GET /api/namespace/webhook/deliveries. */
export const webhookDeliveriesQuerySchema = z.strictObject({
  namespace,
  limit: z.coerce
    .number({ error: "must be a whole number from 1 to 100" })
    .int({ error: "must be a whole number from 1 to 100" })
    .min(1, { error: "must be a whole number from 1 to 100" })
    .max(100, { error: "must be a whole number from 1 to 100" })
    .default(20),
});
export type WebhookDeliveriesQuery = z.output<typeof webhookDeliveriesQuerySchema>;
