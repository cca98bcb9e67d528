import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { EXAMPLES } from "./examples";
import { getFeedbackQuery, submitFeedbackSchema } from "./feedback";
import { insightsQuerySchema, insightsResponseSchema } from "./insights";
import { listQuerySchema, statusQuerySchema } from "./list";
import { registerNamespaceSchema } from "./namespace";
import { resolveFeedbackSchema } from "./resolve";
import {
  feedbackRecordSchema,
  listResponseSchema,
  registerResponseSchema,
  resolveResponseSchema,
  statusResponseSchema,
  submitResponseSchema,
  webhookDeliveriesResponseSchema,
  webhookResendResponseSchema,
  webhookSettingsResponseSchema,
  webhookTestResponseSchema,
} from "./responses";
import {
  resendDeliverySchema,
  updateWebhookSchema,
  webhookDeliveriesQuerySchema,
  webhookNamespaceSchema,
  webhookQuerySchema,
} from "./webhook";

// The examples are published (OpenAPI, each 402's Bazaar extension, llms.txt): an agent copying one
// must get a request the route takes and must see an answer the route can give.
const CASES: [string, unknown, z.ZodType][] = [
  ["register request", EXAMPLES.register.request, registerNamespaceSchema],
  ["register response", EXAMPLES.register.response, registerResponseSchema],
  ["feedback request", EXAMPLES.feedback.request, submitFeedbackSchema],
  ["feedback response", EXAMPLES.feedback.response, submitResponseSchema],
  ["resolve request", EXAMPLES.resolve.request, resolveFeedbackSchema],
  ["resolve response", EXAMPLES.resolve.response, resolveResponseSchema],
  ["record query", EXAMPLES.record.query, getFeedbackQuery],
  ["record response", EXAMPLES.record.response, feedbackRecordSchema],
  ["list query", EXAMPLES.list.query, listQuerySchema],
  ["list response", EXAMPLES.list.response, listResponseSchema],
  ["status query", EXAMPLES.status.query, statusQuerySchema],
  ["status response", EXAMPLES.status.response, statusResponseSchema],
  ["insights query", EXAMPLES.insights.query, insightsQuerySchema],
  ["insights response", EXAMPLES.insights.response, insightsResponseSchema],
  ["webhook query", EXAMPLES.webhook.query, webhookQuerySchema],
  ["webhook request", EXAMPLES.webhook.request, updateWebhookSchema],
  ["webhook response", EXAMPLES.webhook.response, webhookSettingsResponseSchema],
  ["webhook rotate request", EXAMPLES.webhookRotate.request, webhookNamespaceSchema],
  ["webhook rotate response", EXAMPLES.webhookRotate.response, webhookSettingsResponseSchema],
  ["webhook test request", EXAMPLES.webhookTest.request, webhookNamespaceSchema],
  ["webhook test response", EXAMPLES.webhookTest.response, webhookTestResponseSchema],
  ["deliveries query", EXAMPLES.deliveries.query, webhookDeliveriesQuerySchema],
  ["deliveries response", EXAMPLES.deliveries.response, webhookDeliveriesResponseSchema],
  ["resend request", EXAMPLES.resend.request, resendDeliverySchema],
  ["resend response", EXAMPLES.resend.response, webhookResendResponseSchema],
];

describe("the published examples", () => {
  it.each(CASES)("%s fits its schema", (_, example, schema) => {
    const parsed = schema.safeParse(example);
    expect(parsed.error?.issues ?? []).toEqual([]);
  });
});
