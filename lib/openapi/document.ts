import "server-only";
import { SIWX_HEADER } from "@/lib/auth/siwx";
import { env } from "@/lib/env";
import { type CallbackEventType, callbackEventData } from "@/lib/schemas/callback";
import { SUBMITTER_GUIDANCE } from "@/lib/schemas/operations/submitters";
import { SERVICE } from "@/lib/schemas/service";
import { type WebhookEventType, webhookEventData } from "@/lib/schemas/webhook-events";
import { agentGuidance } from "./catalog";
import { componentSchemas, EVENT_ENVELOPES, eventComponentName, ref } from "./components";
import { operationPaths } from "./paths";

/** The tags that group the operations, in the order a reader meets them. */
const TAGS = [
  { name: "Submitters", description: "File feedback (paid) and follow what became of it (free, signed in)." },
  { name: "Owners", description: "Register a namespace (paid), read the inbox and resolve items." },
  {
    name: "Webhooks",
    description:
      "Events pushed to the owner's URL, signed the Standard Webhooks way, or as Slack or Discord messages; and report.* events pushed to a reporter's callback URL.",
  },
] as const;

const WEBHOOK_SIGNATURE = `Each delivery is a JSON POST signed the Standard Webhooks way: headers webhook-id, webhook-timestamp and webhook-signature ("v1,<base64 HMAC-SHA256 of id.timestamp.body>", keyed with the base64-decoded part of the namespace's secret after "whsec_"). Verify with any Standard Webhooks library (e.g. the standardwebhooks npm package) and drop repeated webhook-ids. Any 2xx acknowledges; anything else, or no answer within 10 s, is retried with exponential backoff for about a day. Redirects are not followed.

This is the body with format "standard" (the default). With format "slack" or "discord", the same event arrives instead as an unsigned chat message built from it when it is sent: Slack's {text, blocks}, or Discord's {content, embeds, allowed_mentions} with mentions never parsed.`;

const CALLBACK_SIGNATURE = `Sent to the callbackUrl a reporter gave with its submission (or a follow-up, or PATCH /api/namespace/feedback/callback), about that report only, signed the Standard Webhooks way with the callbackSecret the same answer carried (headers webhook-id, webhook-timestamp, webhook-signature). Verify with any Standard Webhooks library and drop repeated webhook-ids. Deliveries may arrive out of order: order them by the body's timestamp. Any 2xx acknowledges; anything else, or no answer within 10 s, is retried with exponential backoff for about a day.`;

/** What each event the service POSTs says of itself, and how it is signed. */
function eventDescription(type: string): string {
  if (type in webhookEventData) {
    return `${webhookEventData[type as WebhookEventType].meta()?.description ?? ""}\n\n${WEBHOOK_SIGNATURE}`;
  }
  return `${callbackEventData[type as CallbackEventType].meta()?.description ?? ""}\n\n${CALLBACK_SIGNATURE}`;
}

/**
 * The outgoing events (OpenAPI 3.1 \`webhooks\`): one POST per event type, to an owner's webhook
 * (feedback.*, reward.paid, webhook.test, digest.daily) or to a reporter's callback (report.*).
 */
function webhookEvents() {
  return Object.fromEntries(
    Object.keys(EVENT_ENVELOPES).map((type) => [
      type,
      {
        post: {
          operationId: `webhook_${type.replace(".", "_")}`,
          summary: `${type} event`,
          description: eventDescription(type),
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
  return {
    openapi: "3.1.0",
    info: {
      title: SERVICE.name,
      version: "0.1.0",
      description: `Pay-per-use feedback inbox for AI agents. Paid calls accept x402 (v2, exact) and MPP (tempo, charge); free reads sign in with ${SIWX_HEADER}. Prices in USD. A guide for agents: ${e.PUBLIC_ORIGIN}/llms.txt\n\nGuidance for submitters:\n${guidance}`,
      contact: contact(e.PUBLIC_ORIGIN),
      "x-guidance": agentGuidance(),
    },
    servers: [{ url: e.PUBLIC_ORIGIN }],
    tags: TAGS,
    "x-service-info": {
      categories: [...SERVICE.tags],
      docs: {
        homepage: e.PUBLIC_ORIGIN,
        apiReference: `${e.PUBLIC_ORIGIN}/openapi.json`,
        llms: `${e.PUBLIC_ORIGIN}/llms.txt`,
      },
    },
    "x-agentcash-guidance": { llmsTxtUrl: `${e.PUBLIC_ORIGIN}/llms.txt` },
    paths: operationPaths(),
    webhooks: webhookEvents(),
    components: {
      schemas: componentSchemas(),
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
