import type { z } from "zod";
import type {
  webhookDeliveriesResponseSchema,
  webhookSettingsResponseSchema,
  webhookTestResponseSchema,
} from "@/lib/schemas/responses";
import { api } from "../http";

/** A namespace's webhook settings, as the owner sees them. */
export type WebhookSettings = z.output<typeof webhookSettingsResponseSchema>;

/** The delivery log, newest first. */
export type WebhookDeliveries = z.output<typeof webhookDeliveriesResponseSchema>;

/** One row of the delivery log. */
export type WebhookDelivery = WebhookDeliveries["deliveries"][number];

const q = encodeURIComponent;

/** The webhook URL, signing secret and events of a namespace the signed-in wallet owns. */
export function fetchWebhook(namespace: string): Promise<WebhookSettings> {
  return api<WebhookSettings>(`/api/namespace/webhook?namespace=${q(namespace)}`);
}

/** Sets the webhook URL, or removes it with null. */
export function patchWebhookUrl(namespace: string, url: string | null): Promise<WebhookSettings> {
  return api<WebhookSettings>("/api/namespace/webhook", {
    method: "PATCH",
    body: JSON.stringify({ namespace, url }),
  });
}

/** Replaces the signing secret. */
export function postRotateSecret(namespace: string): Promise<WebhookSettings> {
  return api<WebhookSettings>("/api/namespace/webhook/rotate", {
    method: "POST",
    body: JSON.stringify({ namespace }),
  });
}

/** Queues a `webhook.test` event. */
export function postTestEvent(namespace: string): Promise<z.output<typeof webhookTestResponseSchema>> {
  return api<z.output<typeof webhookTestResponseSchema>>("/api/namespace/webhook/test", {
    method: "POST",
    body: JSON.stringify({ namespace }),
  });
}

/** The most recent deliveries, newest first. */
export function fetchDeliveries(namespace: string, limit = 50): Promise<WebhookDeliveries> {
  return api<WebhookDeliveries>(`/api/namespace/webhook/deliveries?namespace=${q(namespace)}&limit=${limit}`);
}
