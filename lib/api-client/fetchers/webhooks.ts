import { api } from "../http";

/** A namespace's webhook settings, as the owner sees them. */
export type WebhookSettings = {
  namespace: string;
  url: string | null;
  secret: string | null;
  events: string[];
};

/** One row of the delivery log. */
export type WebhookDelivery = {
  id: string;
  eventType: string;
  status: "pending" | "delivered" | "failed";
  attempts: number;
  lastStatusCode: number | null;
  lastError: string | null;
  lastAttemptAt: string | null;
  nextAttemptAt: string | null;
  deliveredAt: string | null;
  createdAt: string;
};

export type WebhookDeliveries = { namespace: string; count: number; deliveries: WebhookDelivery[] };

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
export function postTestEvent(namespace: string): Promise<{ id: string }> {
  return api<{ id: string }>("/api/namespace/webhook/test", {
    method: "POST",
    body: JSON.stringify({ namespace }),
  });
}

/** The most recent deliveries, newest first. */
export function fetchDeliveries(namespace: string, limit = 50): Promise<WebhookDeliveries> {
  return api<WebhookDeliveries>(`/api/namespace/webhook/deliveries?namespace=${q(namespace)}&limit=${limit}`);
}
