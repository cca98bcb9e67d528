import "server-only";
import { z } from "zod";
import { SIWX_HEADER } from "@/lib/auth/siwx";
import { CSV_COLUMNS } from "@/lib/domain/feedback/export-format";
import { env } from "@/lib/env";
import { EXAMPLES } from "@/lib/schemas/examples";
import { getFeedbackQuery, submitFeedbackSchema } from "@/lib/schemas/feedback";
import { followUpSchema } from "@/lib/schemas/follow-up";
import { insightsQuerySchema, insightsResponseSchema } from "@/lib/schemas/insights";
import { exportQuerySchema, listQuerySchema, statusQuerySchema } from "@/lib/schemas/list";
import { registerNamespaceSchema } from "@/lib/schemas/namespace";
import { resolveFeedbackSchema } from "@/lib/schemas/resolve";
import {
  changeLabelsResponseSchema,
  changeStatusResponseSchema,
  exportRecordsSchema,
  feedbackRecordSchema,
  followUpResponseSchema,
  listResponseSchema,
  mergeResponseSchema,
  problemSchema,
  registerResponseSchema,
  resolveResponseSchema,
  statusResponseSchema,
  submitResponseSchema,
  unmergeResponseSchema,
  webhookDeliveriesResponseSchema,
  webhookResendResponseSchema,
  webhookSettingsResponseSchema,
  webhookTestResponseSchema,
} from "@/lib/schemas/responses";
import { changeLabelsSchema, changeStatusSchema, mergeSchema, unmergeSchema } from "@/lib/schemas/triage";
import {
  resendDeliverySchema,
  updateWebhookSchema,
  webhookDeliveriesQuerySchema,
  webhookNamespaceSchema,
  webhookQuerySchema,
} from "@/lib/schemas/webhook";
import { type WebhookEventType, webhookEnvelopeSchema, webhookEventData } from "@/lib/schemas/webhook-events";
import { agentGuidance, PAID_OPERATIONS, paymentInfoFor, REQUEST_CAPS, SUBMITTER_GUIDANCE } from "./catalog";

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
  ChangeStatusResponse: changeStatusResponseSchema,
  FollowUpResponse: followUpResponseSchema,
  MergeResponse: mergeResponseSchema,
  LabelsResponse: changeLabelsResponseSchema,
  UnmergeResponse: unmergeResponseSchema,
  ExportRecords: exportRecordsSchema,
  Insights: insightsResponseSchema,
  WebhookSettings: webhookSettingsResponseSchema,
  WebhookTest: webhookTestResponseSchema,
  WebhookDeliveries: webhookDeliveriesResponseSchema,
  WebhookResend: webhookResendResponseSchema,
  Problem: problemSchema,
} as const;
export type ComponentName = keyof typeof COMPONENTS;

/** Each webhook event's delivery body, as a component: "feedback.created" → FeedbackCreatedEvent. */
const EVENT_COMPONENTS = Object.fromEntries(
  (Object.keys(webhookEventData) as WebhookEventType[]).map((type) => [eventComponentName(type), type]),
) as Record<string, WebhookEventType>;
type EventComponentName = `${string}Event`;

function eventComponentName(type: WebhookEventType): EventComponentName {
  return `${type.replace(/(^|[._])([a-z])/g, (_, __, c: string) => c.toUpperCase())}Event`;
}

const ref = (name: ComponentName | EventComponentName) => ({ $ref: `#/components/schemas/${name}` });
const problem = (description: string) => ({
  description,
  content: { "application/problem+json": { schema: ref("Problem") } },
});
const ok = (name: ComponentName, example: unknown, description = "Success") => ({
  description,
  content: { "application/json": { schema: ref(name), example } },
});
const jsonBody = (schema: z.ZodType, example: unknown) => ({
  required: true,
  content: { "application/json": { schema: schemaOf(schema, "input"), example } },
});

/** Query parameters from a strict query schema: one parameter per property, with its example value. */
function queryParameters(schema: z.ZodType, example: Record<string, unknown>) {
  const json = schemaOf(schema, "input") as { properties: Record<string, JsonSchema>; required?: string[] };
  return Object.entries(json.properties).map(([name, s]) => ({
    name,
    in: "query",
    required: json.required?.includes(name) ?? false,
    schema: s,
    ...(typeof s.description === "string" ? { description: s.description } : {}),
    ...(name in example ? { example: example[name] } : {}),
  }));
}

/** The tags that group the operations, in the order a reader meets them. */
const TAGS = [
  { name: "Submitters", description: "File feedback (paid) and follow what became of it (free, signed in)." },
  { name: "Owners", description: "Register a namespace (paid), read the inbox and resolve items." },
  {
    name: "Webhooks",
    description:
      "Events pushed to the owner's URL, signed the Standard Webhooks way, or as Slack or Discord messages.",
  },
] as const;
type Tag = (typeof TAGS)[number]["name"];
const tagged = (...names: Tag[]) => ({ tags: names });

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
  return paymentInfoFor(PAID_OPERATIONS.find((o) => o.operationId === operationId)!);
}

const PAID_ERRORS = {
  "402": problem(
    "Payment required (x402 challenge in PAYMENT-REQUIRED, MPP in WWW-Authenticate), or a credential refused, unsettled or refunded: nothing of it stayed with the service, sign a new one",
  ),
  "409": problem(
    "Conflict: a credential that already paid for another request, an Idempotency-Key used for another body, a taken name, an item already resolved",
  ),
  "503": problem(
    "The payment network is unavailable and nothing was charged (retry), or payment-pending: a payment being processed or not yet confirmed, completed from the chain and never charged twice (send the same request with the same payment later; do not re-sign)",
  ),
};

/** The Idempotency-Key header every paid operation accepts. */
const IDEMPOTENCY_KEY = {
  name: "Idempotency-Key",
  in: "header",
  required: false,
  description:
    "Your key for this request (1 to 255 visible ASCII characters, e.g. a UUID). A retry with the same key and the same body gets the first answer and is never charged again, even when it carries a newly signed payment; the same key with another body is a 409. Keys are per paying wallet and operation, and are kept as long as the payment made under them; a payment that failed frees its key.",
  schema: { type: "string", minLength: 1, maxLength: 255, pattern: "^[\\x21-\\x7e]+$" },
};

const OWNER_ERRORS = {
  ...BAD_INPUT,
  ...SIGNED_IN,
  "403": problem("Not the namespace owner"),
  "404": problem("No such namespace"),
};

const WEBHOOK_SIGNATURE = `Each delivery is a JSON POST signed the Standard Webhooks way: headers webhook-id, webhook-timestamp and webhook-signature ("v1,<base64 HMAC-SHA256 of id.timestamp.body>", keyed with the base64-decoded part of the namespace's secret after "whsec_"). Verify with any Standard Webhooks library (e.g. the standardwebhooks npm package) and drop repeated webhook-ids. Any 2xx acknowledges; anything else, or no answer within 10 s, is retried with exponential backoff for about a day. Redirects are not followed.

This is the body with format "standard" (the default). With format "slack" or "discord", the same event arrives instead as an unsigned chat message built from it when it is sent: Slack's {text, blocks}, or Discord's {content, embeds, allowed_mentions} with mentions never parsed.`;

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

/** Where to reach the operators: the configured address, and the service's own origin. */
function contact(origin: string) {
  const email = env().CONTACT_EMAIL;
  return { name: "Feedback service", url: origin, ...(email ? { email } : {}) };
}

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
      contact: contact(e.PUBLIC_ORIGIN),
      "x-guidance": agentGuidance(),
    },
    servers: [{ url: e.PUBLIC_ORIGIN }],
    tags: TAGS,
    "x-service-info": {
      categories: ["developer-tools", "feedback", "issue-tracking"],
      docs: {
        homepage: e.PUBLIC_ORIGIN,
        apiReference: `${e.PUBLIC_ORIGIN}/openapi.json`,
        llms: `${e.PUBLIC_ORIGIN}/llms.txt`,
      },
    },
    "x-agentcash-guidance": { llmsTxtUrl: `${e.PUBLIC_ORIGIN}/llms.txt` },
    paths: {
      "/api/namespace/register": {
        post: {
          operationId: "namespace_register",
          ...tagged("Owners"),
          parameters: [IDEMPOTENCY_KEY],
          summary: "Register a namespace (1 USD)",
          description:
            "The paying wallet becomes the owner and claims every item already sent to the name (existingFeedbackLinked).",
          requestBody: jsonBody(registerNamespaceSchema, EXAMPLES.register.request),
          responses: {
            "200": ok("RegisterResponse", EXAMPLES.register.response),
            ...BAD_INPUT,
            ...BODY_ERRORS,
            ...PAID_ERRORS,
          },
          "x-payment-info": paymentInfo("namespace_register"),
        },
      },
      "/api/namespace/feedback": {
        post: {
          operationId: "namespace_feedback",
          ...tagged("Submitters"),
          parameters: [IDEMPOTENCY_KEY],
          summary: "Submit feedback (0.01 USD)",
          description: `Any namespace name, registered or not. An optional ${SIWX_HEADER} proof for the paying wallet marks the item verified.\n\n${guidance}`,
          requestBody: jsonBody(submitFeedbackSchema, EXAMPLES.feedback.request),
          responses: {
            "200": ok("SubmitResponse", EXAMPLES.feedback.response),
            ...BAD_INPUT,
            ...BODY_ERRORS,
            ...PAID_ERRORS,
          },
          "x-payment-info": paymentInfo("namespace_feedback"),
        },
        get: {
          operationId: "namespace_feedback_get",
          ...tagged("Submitters", "Owners"),
          summary: "Read one full record (free, signed in as its owner or submitter)",
          security: siwx,
          parameters: queryParameters(getFeedbackQuery, EXAMPLES.record.query),
          responses: {
            "200": ok("FeedbackRecord", EXAMPLES.record.response),
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
          ...tagged("Owners"),
          parameters: [IDEMPOTENCY_KEY],
          summary: "Resolve an item, optionally with a USDC reward (price = rewardAmount, 0 to 2 USD)",
          description:
            'Owner only. Without a reward (omitted or "0") the call is free and needs a sign-in; with one, the price is the reward, paid with either protocol, and forwarded to the submitter on Tempo.',
          security: [{}, ...siwx],
          requestBody: jsonBody(resolveFeedbackSchema, EXAMPLES.resolve.request),
          responses: {
            "200": ok("ResolveResponse", EXAMPLES.resolve.response),
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
      "/api/namespace/feedback/follow-up": {
        post: {
          operationId: "namespace_feedback_follow_up",
          ...tagged("Submitters"),
          parameters: [IDEMPOTENCY_KEY],
          summary: "Answer the owner's question on your item (0.01 USD)",
          description:
            "When the owner set an item you submitted to needs_info, its last history entry is the question. Answer it here, paying from the wallet that submitted the item, with a message and any details (steps, expected, actual, context). The answer joins the item's history and the item is open again for the owner. Refused before any charge when the item is not waiting for information or the payer is not its submitter.",
          requestBody: jsonBody(followUpSchema, EXAMPLES.followUp.request),
          responses: {
            "200": ok("FollowUpResponse", EXAMPLES.followUp.response),
            ...BAD_INPUT,
            ...BODY_ERRORS,
            ...PAID_ERRORS,
            "403": problem("The paying wallet did not submit this item"),
            "404": problem("No such item"),
          },
          "x-payment-info": paymentInfo("namespace_feedback_follow_up"),
        },
      },
      "/api/namespace/feedback/merge": {
        post: {
          operationId: "namespace_feedback_merge",
          ...tagged("Owners"),
          summary: "File reports under one group of duplicates (owner, free, signed in)",
          description:
            "Each named report, and every report already grouped under it, joins the group of into (or of the group into belongs to), merged (groupKind: merged); merging a suggested report confirms it. All or none. The service suggests a new report into an open group it is alike (groupKind: suggested); a suggestion changes nothing else. The group's head counts its reports as votes (reportCount). An action changes only the items it names: resolve's alsoResolve names the other reports to resolve with it.",
          security: siwx,
          requestBody: jsonBody(mergeSchema, EXAMPLES.merge.request),
          responses: {
            "200": ok("MergeResponse", EXAMPLES.merge.response),
            ...OWNER_ERRORS,
            ...BODY_ERRORS,
            "404": problem("No such namespace, or a report that is not in it (errors names each)"),
          },
        },
      },
      "/api/namespace/feedback/labels": {
        post: {
          operationId: "namespace_feedback_labels",
          ...tagged("Owners"),
          summary: "Add and remove labels on one or many items (owner, free, signed in)",
          description:
            "Labels are the owner's own words (1 to 30 characters, no commas), at most 10 per item. All named items change or none does; each change is written to the item's history. list filters by one with label=.",
          security: siwx,
          requestBody: jsonBody(changeLabelsSchema, EXAMPLES.labels.request),
          responses: {
            "200": ok("LabelsResponse", EXAMPLES.labels.response),
            ...OWNER_ERRORS,
            ...BODY_ERRORS,
            "404": problem("No such namespace, or an item that is not in it (errors names each)"),
          },
        },
      },
      "/api/namespace/feedback/unmerge": {
        post: {
          operationId: "namespace_feedback_unmerge",
          ...tagged("Owners"),
          summary: "Take reports out of their groups (owner, free, signed in)",
          security: siwx,
          requestBody: jsonBody(unmergeSchema, EXAMPLES.unmerge.request),
          responses: {
            "200": ok("UnmergeResponse", EXAMPLES.unmerge.response),
            ...OWNER_ERRORS,
            ...BODY_ERRORS,
            "404": problem("No such namespace, or a report that is not in it (errors names each)"),
          },
        },
      },
      "/api/namespace/feedback/status": {
        post: {
          operationId: "namespace_feedback_status",
          ...tagged("Owners"),
          summary: "Triage: set one status on one or many items (owner, free, signed in)",
          description:
            "Statuses: open, acknowledged, needs_info, in_progress, wont_fix, duplicate, spam, resolved. All named items change or none does; an item already in the status is left as it is. resolved is the contract's resolution without a reward (message stored, feedback.resolved sent); any other status on a resolved item reopens it. The message is shown to the submitter in status and in the item's history: with needs_info it is the question the submitter answers.",
          security: siwx,
          requestBody: jsonBody(changeStatusSchema, EXAMPLES.changeStatus.request),
          responses: {
            "200": ok("ChangeStatusResponse", EXAMPLES.changeStatus.response),
            ...OWNER_ERRORS,
            ...BODY_ERRORS,
            "404": problem("No such namespace, or an item that is not in it (errors names each)"),
            "409": problem("An item is held by a rewarded resolve being paid; retry after it ends"),
          },
        },
      },
      "/api/namespace/list": {
        get: {
          operationId: "namespace_list",
          ...tagged("Owners"),
          summary: "The owner's inbox (free, signed in), newest first",
          security: siwx,
          parameters: queryParameters(listQuerySchema, EXAMPLES.list.query),
          responses: {
            "200": ok("ListResponse", EXAMPLES.list.response),
            ...BAD_INPUT,
            ...SIGNED_IN,
            "403": problem("Not the namespace owner"),
            "404": problem("No such namespace"),
          },
        },
      },
      "/api/namespace/export": {
        get: {
          operationId: "namespace_export",
          ...tagged("Owners"),
          summary: "Export a filtered inbox view as CSV or JSON, streamed (owner, free, signed in)",
          description: `Every item the view's filters select, newest first, streamed without a size limit. CSV: RFC 4180 (CRLF, a UTF-8 byte order mark), columns ${CSV_COLUMNS.join(", ")}; lists and objects as JSON; a cell that a spreadsheet would run as a formula (starting with =, +, -, @, tab or CR) is prefixed with a single quote. JSON: an array of records (the full record's fields without history).`,
          security: siwx,
          parameters: queryParameters(exportQuerySchema, EXAMPLES.export.query),
          responses: {
            "200": {
              description: "The export, as an attachment",
              content: {
                "text/csv": { schema: { type: "string" }, example: EXAMPLES.export.csv },
                "application/json": { schema: ref("ExportRecords"), example: EXAMPLES.export.response },
              },
            },
            ...OWNER_ERRORS,
          },
        },
      },
      "/api/namespace/insights": {
        get: {
          operationId: "namespace_insights",
          ...tagged("Owners"),
          summary:
            "Insights: items over time, open and resolved, response times, reporters, rewards (owner, free, signed in)",
          description:
            "Whole UTC days: the last days (default 30, at most 365) up to to (default today), or from to to. Per bucket (day, or ISO week from Monday), the items filed by type and the items resolved. The medians, in seconds (0 over no items, with count saying how many): to the owner's first action (a status, merge or label change) over the items filed in the period, and to resolution over the items resolved in it. The ten wallets that filed the most items in the period, and the rewards whose transfer landed in it, in micro-USD and USD. totals is the whole namespace now.",
          security: siwx,
          parameters: queryParameters(insightsQuerySchema, EXAMPLES.insights.query),
          responses: { "200": ok("Insights", EXAMPLES.insights.response), ...OWNER_ERRORS },
        },
      },
      "/api/namespace/status": {
        get: {
          operationId: "namespace_status",
          ...tagged("Submitters"),
          summary: "The submitter's items with their resolutions (free, signed in)",
          security: siwx,
          parameters: queryParameters(statusQuerySchema, EXAMPLES.status.query),
          responses: { "200": ok("StatusResponse", EXAMPLES.status.response), ...BAD_INPUT, ...SIGNED_IN },
        },
      },
      "/api/namespace/webhook": {
        get: {
          operationId: "webhook_get",
          ...tagged("Webhooks"),
          summary: "The namespace's webhook URL, signing secret and events (owner, free, signed in)",
          security: siwx,
          parameters: queryParameters(webhookQuerySchema, EXAMPLES.webhook.query),
          responses: { "200": ok("WebhookSettings", EXAMPLES.webhook.response), ...OWNER_ERRORS },
        },
        patch: {
          operationId: "webhook_update",
          ...tagged("Webhooks"),
          summary:
            "Set the webhook URL (null stops sending), format, events and digest (owner, free, signed in)",
          description:
            'Any of the fields; one left out keeps its value. url: only http(s); hosts that are or resolve to loopback, private, link-local, multicast or cloud-metadata addresses are refused. format: "standard" (signed Standard Webhooks JSON), "slack" or "discord" (an unsigned chat message for an incoming-webhook URL), applied to every delivery sent from then on, retries included. events: the events sent as they happen (an empty list sends none); an event not chosen is never queued. webhook.test is always sent on request. digest: "daily" also sends one digest.daily summary a day, shortly after 00:00 UTC, of the UTC day before (not for a quiet day).',
          security: siwx,
          requestBody: jsonBody(updateWebhookSchema, EXAMPLES.webhook.request),
          responses: {
            "200": ok("WebhookSettings", EXAMPLES.webhook.response),
            ...OWNER_ERRORS,
            ...BODY_ERRORS,
          },
        },
      },
      "/api/namespace/webhook/rotate": {
        post: {
          operationId: "webhook_rotate_secret",
          ...tagged("Webhooks"),
          summary: "Replace the signing secret (owner, free, signed in)",
          description: "Every delivery from now on, retries included, is signed with the new secret.",
          security: siwx,
          requestBody: jsonBody(webhookNamespaceSchema, EXAMPLES.webhookRotate.request),
          responses: {
            "200": ok("WebhookSettings", EXAMPLES.webhookRotate.response),
            ...OWNER_ERRORS,
            ...BODY_ERRORS,
          },
        },
      },
      "/api/namespace/webhook/test": {
        post: {
          operationId: "webhook_send_test",
          ...tagged("Webhooks"),
          summary: "Queue a webhook.test event (owner, free, signed in)",
          security: siwx,
          requestBody: jsonBody(webhookNamespaceSchema, EXAMPLES.webhookTest.request),
          responses: {
            "202": ok(
              "WebhookTest",
              EXAMPLES.webhookTest.response,
              "Queued: delivered and logged like any other event",
            ),
            ...OWNER_ERRORS,
            ...BODY_ERRORS,
            "409": problem("The namespace has no webhook URL"),
          },
        },
      },
      "/api/namespace/webhook/deliveries/resend": {
        post: {
          operationId: "webhook_resend",
          ...tagged("Webhooks"),
          summary: "Re-send a failed or delivered delivery (owner, free, signed in)",
          description:
            "Queues a new delivery with the same event and body, a new webhook-id, and resentFrom linking it to the original (whose resentAs then names the copy), sent in the current format to the current URL. Each delivery is re-sent at most once: re-send the copy to try again.",
          security: siwx,
          requestBody: jsonBody(resendDeliverySchema, EXAMPLES.resend.request),
          responses: {
            "202": ok(
              "WebhookResend",
              EXAMPLES.resend.response,
              "Queued: delivered and logged like any other",
            ),
            ...OWNER_ERRORS,
            ...BODY_ERRORS,
            "404": problem("No such namespace, or no such delivery in it"),
            "409": problem(
              "The delivery is still pending or was re-sent already, or the namespace has no webhook URL",
            ),
          },
        },
      },
      "/api/namespace/webhook/deliveries": {
        get: {
          operationId: "webhook_deliveries",
          ...tagged("Webhooks"),
          summary: "The delivery log, newest first: status, attempts, last response code and time",
          security: siwx,
          parameters: queryParameters(webhookDeliveriesQuerySchema, EXAMPLES.deliveries.query),
          responses: { "200": ok("WebhookDeliveries", EXAMPLES.deliveries.response), ...OWNER_ERRORS },
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
          "x-agentcash-auth-kind": "siwx",
          in: "header",
          name: SIWX_HEADER,
          description:
            "Sign-in-with-x (CAIP-122 / EIP-4361): base64 JSON of the signed challenge that a 402 'Authentication Required' advertises in PAYMENT-REQUIRED (extension sign-in-with-x). Each nonce is accepted once.",
        },
      },
    },
  };
}
