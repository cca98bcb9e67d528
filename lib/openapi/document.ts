import "server-only";
import { z } from "zod";
import { SIWX_HEADER } from "@/lib/auth/siwx";
import { env } from "@/lib/env";
import { getFeedbackQuery, submitFeedbackSchema } from "@/lib/schemas/feedback";
import { listQuerySchema, statusQuerySchema } from "@/lib/schemas/list";
import { registerNamespaceSchema } from "@/lib/schemas/namespace";
import { resolveFeedbackSchema } from "@/lib/schemas/resolve";
import {
  feedbackRecordSchema,
  listResponseSchema,
  problemSchema,
  registerResponseSchema,
  resolveResponseSchema,
  statusResponseSchema,
  submitResponseSchema,
  webhookDeliveriesResponseSchema,
  webhookSettingsResponseSchema,
  webhookTestResponseSchema,
} from "@/lib/schemas/responses";
import {
  updateWebhookSchema,
  webhookDeliveriesQuerySchema,
  webhookNamespaceSchema,
  webhookQuerySchema,
} from "@/lib/schemas/webhook";
import { type WebhookEventType, webhookEnvelopeSchema, webhookEventData } from "@/lib/schemas/webhook-events";
import { PAID_OPERATIONS, paymentProtocols, priceOf, REQUEST_CAPS, SUBMITTER_GUIDANCE } from "./catalog";

type JsonSchema = Record<string, unknown>;

/** A zod schema as a JSON Schema (2020-12, OpenAPI 3.1's dialect) without its `$schema` line. */
function schemaOf(schema: z.ZodType, io: "input" | "output"): JsonSchema {
  const { $schema: _, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: "any" }) as JsonSchema;
  return rest;
}

const COMPONENTS = {
  RegisterResponse: registerResponseSchema,
  SubmitResponse: submitResponseSchema,
  FeedbackRecord: feedbackRecordSchema,
  ListResponse: listResponseSchema,
  StatusResponse: statusResponseSchema,
  ResolveResponse: resolveResponseSchema,
  WebhookSettings: webhookSettingsResponseSchema,
  WebhookTest: webhookTestResponseSchema,
  WebhookDeliveries: webhookDeliveriesResponseSchema,
  Problem: problemSchema,
} as const;
export type ComponentName = keyof typeof COMPONENTS;

/** Each webhook event's delivery body, as a component: "feedback.created" → FeedbackCreatedEvent. */
const EVENT_COMPONENTS = Object.fromEntries(
  (Object.keys(webhookEventData) as WebhookEventType[]).map((type) => [eventComponentName(type), type]),
) as Record<string, WebhookEventType>;
type EventComponentName = `${string}Event`;

function eventComponentName(type: WebhookEventType): EventComponentName {
  return `${type.replace(/(^|[.])([a-z])/g, (_, __, c: string) => c.toUpperCase())}Event`;
}

const ref = (name: ComponentName | EventComponentName) => ({ $ref: `#/components/schemas/${name}` });
const problem = (description: string) => ({
  description,
  content: { "application/problem+json": { schema: ref("Problem") } },
});
const ok = (name: ComponentName, description = "Success") => ({
  description,
  content: { "application/json": { schema: ref(name) } },
});
const jsonBody = (schema: z.ZodType) => ({
  required: true,
  content: { "application/json": { schema: schemaOf(schema, "input") } },
});

/** Query parameters from a strict query schema: one parameter per property. */
function queryParameters(schema: z.ZodType) {
  const json = schemaOf(schema, "input") as { properties: Record<string, JsonSchema>; required?: string[] };
  return Object.entries(json.properties).map(([name, s]) => ({
    name,
    in: "query",
    required: json.required?.includes(name) ?? false,
    schema: s,
    ...(typeof s.description === "string" ? { description: s.description } : {}),
  }));
}

const BAD_INPUT = {
  "400": problem("Invalid input: `errors` names each bad field"),
  "429": problem("Too many requests: retry after the Retry-After header's seconds"),
};
const BODY_ERRORS = {
  "413": problem(`Body over ${REQUEST_CAPS.bodyBytes} bytes, refused before parsing`),
  "415": problem("Body is not JSON"),
};
const SIGNED_IN = {
  "401": problem("The sign-in proof does not verify"),
  "402": problem("Authentication Required: a sign-in-with-x challenge in PAYMENT-REQUIRED"),
};

/** The x-payment-info extension of a paid operation: price and the protocols that pay it. */
function paymentInfo(operationId: string) {
  const op = PAID_OPERATIONS.find((o) => o.operationId === operationId)!;
  const { x402, mpp } = paymentProtocols();
  const price = priceOf(op);
  return {
    price: { amount: price.amount, currency: "USD", ...(price.dynamic ? { dynamic: price.dynamic } : {}) },
    protocols: [
      { x402: { ...x402, amount: price.x402Amount } },
      { mpp: { ...mpp, amount: price.mppAmount } },
    ],
  };
}

const PAID_ERRORS = {
  "402": problem("Payment required: x402 challenge in PAYMENT-REQUIRED, MPP in WWW-Authenticate"),
  "409": problem("Conflict: a credential already used, a taken name, an item already resolved"),
  "503": problem(
    "The payment network is unavailable and nothing was charged, or a settlement's outcome is not known yet: it is reconciled from the chain and never charged twice (do not re-sign it)",
  ),
};

const OWNER_ERRORS = {
  ...BAD_INPUT,
  ...SIGNED_IN,
  "403": problem("Not the namespace owner"),
  "404": problem("No such namespace"),
};

const WEBHOOK_SIGNATURE = `Each delivery is a JSON POST signed the Standard Webhooks way: headers webhook-id, webhook-timestamp and webhook-signature ("v1,<base64 HMAC-SHA256 of id.timestamp.body>", keyed with the base64-decoded part of the namespace's secret after "whsec_"). Verify with any Standard Webhooks library (e.g. the standardwebhooks npm package) and drop repeated webhook-ids. Any 2xx acknowledges; anything else, or no answer within 10 s, is retried with exponential backoff for about a day. Redirects are not followed.`;

/** The outgoing webhooks (OpenAPI 3.1 \`webhooks\`): one POST per event type. */
function webhookEvents() {
  return Object.fromEntries(
    (Object.keys(webhookEventData) as WebhookEventType[]).map((type) => [
      type,
      {
        post: {
          operationId: `webhook_${type.replace(".", "_")}`,
          summary: `${type} event`,
          description: `${webhookEventData[type].meta()?.description ?? ""}\n\n${WEBHOOK_SIGNATURE}`,
          requestBody: {
            required: true,
            content: { "application/json": { schema: ref(eventComponentName(type)) } },
          },
          responses: { "200": { description: "Any 2xx acknowledges the delivery" } },
        },
      },
    ]),
  );
}

const guidance = SUBMITTER_GUIDANCE.map((g) => `- ${g}`).join("\n");

/** The OpenAPI 3.1 document for every endpoint, generated from the schemas the routes use. */
export function openApiDocument() {
  const e = env();
  const siwx = [{ siwx: [] }];
  return {
    openapi: "3.1.0",
    info: {
      title: "Feedback service",
      version: "0.1.0",
      description: `Pay-per-use feedback inbox for AI agents. Paid calls accept x402 (v2, exact) and MPP (tempo, charge); free reads sign in with ${SIWX_HEADER}. Prices in USD. A guide for agents: ${e.PUBLIC_ORIGIN}/llms.txt\n\nGuidance for submitters:\n${guidance}`,
    },
    servers: [{ url: e.PUBLIC_ORIGIN }],
    "x-guidance": SUBMITTER_GUIDANCE,
    paths: {
      "/api/namespace/register": {
        post: {
          operationId: "namespace_register",
          summary: "Register a namespace (1 USD)",
          description:
            "The paying wallet becomes the owner and claims every item already sent to the name (existingFeedbackLinked).",
          requestBody: jsonBody(registerNamespaceSchema),
          responses: { "200": ok("RegisterResponse"), ...BAD_INPUT, ...BODY_ERRORS, ...PAID_ERRORS },
          "x-payment-info": paymentInfo("namespace_register"),
        },
      },
      "/api/namespace/feedback": {
        post: {
          operationId: "namespace_feedback",
          summary: "Submit feedback (0.01 USD)",
          description: `Any namespace name, registered or not. An optional ${SIWX_HEADER} proof for the paying wallet marks the item verified.\n\n${guidance}`,
          requestBody: jsonBody(submitFeedbackSchema),
          responses: { "200": ok("SubmitResponse"), ...BAD_INPUT, ...BODY_ERRORS, ...PAID_ERRORS },
          "x-payment-info": paymentInfo("namespace_feedback"),
          "x-guidance": SUBMITTER_GUIDANCE,
        },
        get: {
          operationId: "namespace_feedback_get",
          summary: "Read one full record (free, signed in as its owner or submitter)",
          security: siwx,
          parameters: queryParameters(getFeedbackQuery),
          responses: {
            "200": ok("FeedbackRecord"),
            ...BAD_INPUT,
            ...SIGNED_IN,
            "403": problem("Neither the namespace owner nor the submitter"),
            "404": problem("No such item"),
          },
        },
      },
      "/api/namespace/resolve": {
        post: {
          operationId: "namespace_resolve",
          summary: "Resolve an item, optionally with a USDC reward (price = rewardAmount, 0 to 2 USD)",
          description:
            'Owner only. Without a reward (omitted or "0") the call is free and needs a sign-in; with one, the price is the reward, paid with either protocol, and forwarded to the submitter on Tempo.',
          security: [{}, ...siwx],
          requestBody: jsonBody(resolveFeedbackSchema),
          responses: {
            "200": ok("ResolveResponse"),
            ...BAD_INPUT,
            ...BODY_ERRORS,
            ...PAID_ERRORS,
            "401": problem("The sign-in proof does not verify"),
            "403": problem("Not the namespace owner"),
            "404": problem("No such item"),
            "502": problem("The reward could not be paid; the payment was refunded"),
          },
          "x-payment-info": paymentInfo("namespace_resolve"),
        },
      },
      "/api/namespace/list": {
        get: {
          operationId: "namespace_list",
          summary: "The owner's inbox (free, signed in), newest first",
          security: siwx,
          parameters: queryParameters(listQuerySchema),
          responses: {
            "200": ok("ListResponse"),
            ...BAD_INPUT,
            ...SIGNED_IN,
            "403": problem("Not the namespace owner"),
            "404": problem("No such namespace"),
          },
        },
      },
      "/api/namespace/status": {
        get: {
          operationId: "namespace_status",
          summary: "The submitter's items with their resolutions (free, signed in)",
          security: siwx,
          parameters: queryParameters(statusQuerySchema),
          responses: { "200": ok("StatusResponse"), ...BAD_INPUT, ...SIGNED_IN },
        },
      },
      "/api/namespace/webhook": {
        get: {
          operationId: "webhook_get",
          summary: "The namespace's webhook URL, signing secret and events (owner, free, signed in)",
          security: siwx,
          parameters: queryParameters(webhookQuerySchema),
          responses: { "200": ok("WebhookSettings"), ...OWNER_ERRORS },
        },
        patch: {
          operationId: "webhook_update",
          summary: "Set the webhook URL, or stop sending with null (owner, free, signed in)",
          description:
            "Only http(s). Hosts that are or resolve to loopback, private, link-local, multicast or cloud-metadata addresses are refused.",
          security: siwx,
          requestBody: jsonBody(updateWebhookSchema),
          responses: { "200": ok("WebhookSettings"), ...OWNER_ERRORS, ...BODY_ERRORS },
        },
      },
      "/api/namespace/webhook/rotate": {
        post: {
          operationId: "webhook_rotate_secret",
          summary: "Replace the signing secret (owner, free, signed in)",
          description: "Every delivery from now on, retries included, is signed with the new secret.",
          security: siwx,
          requestBody: jsonBody(webhookNamespaceSchema),
          responses: { "200": ok("WebhookSettings"), ...OWNER_ERRORS, ...BODY_ERRORS },
        },
      },
      "/api/namespace/webhook/test": {
        post: {
          operationId: "webhook_send_test",
          summary: "Queue a webhook.test event (owner, free, signed in)",
          security: siwx,
          requestBody: jsonBody(webhookNamespaceSchema),
          responses: {
            "202": ok("WebhookTest", "Queued: delivered and logged like any other event"),
            ...OWNER_ERRORS,
            ...BODY_ERRORS,
            "409": problem("The namespace has no webhook URL"),
          },
        },
      },
      "/api/namespace/webhook/deliveries": {
        get: {
          operationId: "webhook_deliveries",
          summary: "The delivery log, newest first: status, attempts, last response code and time",
          security: siwx,
          parameters: queryParameters(webhookDeliveriesQuerySchema),
          responses: { "200": ok("WebhookDeliveries"), ...OWNER_ERRORS },
        },
      },
    },
    webhooks: webhookEvents(),
    components: {
      schemas: {
        ...Object.fromEntries(
          Object.entries(COMPONENTS).map(([name, schema]) => [name, schemaOf(schema, "output")]),
        ),
        ...Object.fromEntries(
          Object.entries(EVENT_COMPONENTS).map(([name, type]) => [
            name,
            schemaOf(webhookEnvelopeSchema(type), "output"),
          ]),
        ),
      },
      securitySchemes: {
        siwx: {
          type: "apiKey",
          in: "header",
          name: SIWX_HEADER,
          description:
            "Sign-in-with-x (CAIP-122 / EIP-4361): base64 JSON of the signed challenge that a 402 'Authentication Required' advertises in PAYMENT-REQUIRED (extension sign-in-with-x). Each nonce is accepted once.",
        },
      },
    },
  };
}
