import type { z } from "zod";
import type {
  webhookDeliveriesResponseSchema,
  webhookResendResponseSchema,
  webhookSettingsResponseSchema,
  webhookTestResponseSchema,
} from "@/lib/schemas/responses";
import type { UpdateWebhookInput } from "@/lib/schemas/webhook";
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

/** What a settings change may hold: the URL (null removes it), format, events and digest. */
export type WebhookChanges = Partial<Pick<UpdateWebhookInput, "url" | "format" | "events" | "digest">>;

/** Changes some of the webhook settings; the others stay. */
export function patchWebhook(namespace: string, changes: WebhookChanges): Promise<WebhookSettings> {
  return api<WebhookSettings>("/api/namespace/webhook", {
    method: "PATCH",
    body: JSON.stringify({ namespace, ...changes }),
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

/** Queues a failed delivery again, as a new delivery linked to it. */
export function postResendDelivery(
  namespace: string,
  id: string,
): Promise<z.output<typeof webhookResendResponseSchema>> {
  return api<z.output<typeof webhookResendResponseSchema>>("/api/namespace/webhook/deliveries/resend", {
    method: "POST",
    body: JSON.stringify({ namespace, id }),
  });
}

/** The most recent deliveries, newest first. */
export function fetchDeliveries(namespace: string, limit = 50): Promise<WebhookDeliveries> {
  return api<WebhookDeliveries>(`/api/namespace/webhook/deliveries?namespace=${q(namespace)}&limit=${limit}`);
}
