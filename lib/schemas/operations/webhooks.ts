import { EXAMPLES } from "../examples";
import {
  webhookDeliveriesResponseSchema,
  webhookResendResponseSchema,
  webhookSettingsResponseSchema,
  webhookTestResponseSchema,
} from "../responses";
import {
  resendDeliverySchema,
  updateWebhookSchema,
  webhookDeliveriesQuerySchema,
  webhookNamespaceSchema,
  webhookQuerySchema,
} from "../webhook";
import type { Operation } from "./operation";

/** The owner's webhook: where events go, in which format, and the log of what was sent. */

export const getWebhook = {
  name: "webhook",
  operationId: "webhook_get",
  method: "GET",
  path: "/api/namespace/webhook",
  tags: ["Webhooks"],
  summary: "The namespace's webhook URL, signing secret and events",
  access: "sign-in",
  permission: "webhook",
  query: webhookQuerySchema,
  output: { component: "WebhookSettings", schema: webhookSettingsResponseSchema },
  example: { query: EXAMPLES.webhook.query, response: EXAMPLES.webhook.response },
} as const satisfies Operation;

export const updateWebhook = {
  name: "webhook-update",
  operationId: "webhook_update",
  method: "PATCH",
  path: "/api/namespace/webhook",
  tags: ["Webhooks"],
  summary: "Set the webhook URL (null stops sending), format, events and digest",
  description:
    'Any of the fields; one left out keeps its value. url: only http(s); hosts that are or resolve to loopback, private, link-local, multicast or cloud-metadata addresses are refused, and the host is resolved when saved: one that does not exist, or whose DNS does not answer within 5 s, is a 400 naming url and nothing is saved. format: "standard" (signed Standard Webhooks JSON), "slack" or "discord" (an unsigned chat message for an incoming-webhook URL), applied to every delivery sent from then on, retries included. events: the events sent as they happen (an empty list sends none); an event not chosen is never queued. webhook.test is always sent on request. digest: "daily" also sends one digest.daily summary a day, shortly after 00:00 UTC, of the UTC day before (not for a quiet day).',
  access: "sign-in",
  permission: "webhook",
  body: updateWebhookSchema,
  output: { component: "WebhookSettings", schema: webhookSettingsResponseSchema },
  example: { request: EXAMPLES.webhook.request, response: EXAMPLES.webhook.response },
} as const satisfies Operation;

export const rotateSecret = {
  name: "webhook-rotate",
  operationId: "webhook_rotate_secret",
  method: "POST",
  path: "/api/namespace/webhook/rotate",
  tags: ["Webhooks"],
  summary: "Replace the signing secret",
  description: "Every delivery from now on, retries included, is signed with the new secret.",
  access: "sign-in",
  permission: "webhook",
  body: webhookNamespaceSchema,
  output: { component: "WebhookSettings", schema: webhookSettingsResponseSchema },
  example: EXAMPLES.webhookRotate,
} as const satisfies Operation;

export const sendTest = {
  name: "webhook-test",
  operationId: "webhook_send_test",
  method: "POST",
  path: "/api/namespace/webhook/test",
  tags: ["Webhooks"],
  summary: "Queue a webhook.test event",
  access: "sign-in",
  permission: "webhook",
  body: webhookNamespaceSchema,
  output: {
    component: "WebhookTest",
    schema: webhookTestResponseSchema,
    status: 202,
    description: "Queued: delivered and logged like any other event",
  },
  example: EXAMPLES.webhookTest,
  errors: { "409": "The namespace has no webhook URL" },
} as const satisfies Operation;

export const resendDelivery = {
  name: "webhook-resend",
  operationId: "webhook_resend",
  method: "POST",
  path: "/api/namespace/webhook/deliveries/resend",
  tags: ["Webhooks"],
  summary: "Re-send a failed or delivered delivery",
  description:
    "Queues a new delivery with the same event and body, a new webhook-id, and resentFrom linking it to the original (whose resentAs then names the copy), sent in the current format to the current URL. Each delivery is re-sent at most once: re-send the copy to try again.",
  access: "sign-in",
  permission: "webhook",
  body: resendDeliverySchema,
  output: {
    component: "WebhookResend",
    schema: webhookResendResponseSchema,
    status: 202,
    description: "Queued: delivered and logged like any other",
  },
  example: EXAMPLES.resend,
  errors: {
    "404": "No such namespace, or no such delivery in it",
    "409": "The delivery is still pending or was re-sent already, or the namespace has no webhook URL",
  },
} as const satisfies Operation;

export const deliveries = {
  name: "webhook-deliveries",
  operationId: "webhook_deliveries",
  method: "GET",
  path: "/api/namespace/webhook/deliveries",
  tags: ["Webhooks"],
  summary: "The delivery log, newest first: items, status, attempts, what was sent and what came back",
  description:
    'One row per delivery. A Slack or Discord message carries every event of one owner action (a resolve of a group, a bulk triage), so it is one row listing its items; the standard format has a row per event. Each row shows the body last POSTed, the receiver\'s status code and the first 500 characters of its answer, or why nothing answered ("connection refused", "DNS: no such host (…)", "timed out after 10 s").',
  access: "sign-in",
  permission: "webhook",
  query: webhookDeliveriesQuerySchema,
  output: { component: "WebhookDeliveries", schema: webhookDeliveriesResponseSchema },
  example: EXAMPLES.deliveries,
} as const satisfies Operation;
