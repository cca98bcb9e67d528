import "server-only";
import { z } from "zod";
import { type CallbackEventType, callbackEnvelopeSchema, callbackEventData } from "@/lib/schemas/callback";
import { ALL_OPERATIONS } from "@/lib/schemas/operations/catalog";
import { problemSchema } from "@/lib/schemas/responses";
import { type WebhookEventType, webhookEnvelopeSchema, webhookEventData } from "@/lib/schemas/webhook-events";

export type JsonSchema = Record<string, unknown>;

/** A zod schema as a JSON Schema (2020-12, OpenAPI 3.1's dialect) without its `$schema` line. */
export function schemaOf(schema: z.ZodType, io: "input" | "output"): JsonSchema {
  const { $schema: _, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: "any" }) as JsonSchema;
  return rest;
}

/** The named response schemas: each operation's answer (from the catalogue), and the problem body. */
const COMPONENTS: Record<string, z.ZodType> = {
  ...Object.fromEntries(ALL_OPERATIONS.map((op) => [op.output.component, op.output.schema])),
  Problem: problemSchema,
};

/** Every event the service POSTs: to an owner's webhook, or to a reporter's callback. */
export const EVENT_ENVELOPES: Record<string, z.ZodType> = {
  ...Object.fromEntries(
    (Object.keys(webhookEventData) as WebhookEventType[]).map((type) => [type, webhookEnvelopeSchema(type)]),
  ),
  ...Object.fromEntries(
    (Object.keys(callbackEventData) as CallbackEventType[]).map((type) => [
      type,
      callbackEnvelopeSchema(type),
    ]),
  ),
};

/** "feedback.created" → FeedbackCreatedEvent: each event's delivery body, as a component. */
export function eventComponentName(type: string): string {
  return `${type.replace(/(^|[._])([a-z])/g, (_, __, c: string) => c.toUpperCase())}Event`;
}

/** A reference to a component; one that does not exist is a mistake in the catalogue, found at once. */
export function ref(name: string) {
  const isEvent = Object.keys(EVENT_ENVELOPES).some((t) => eventComponentName(t) === name);
  if (!(name in COMPONENTS) && !isEvent) throw new Error(`no OpenAPI component named ${name}`);
  return { $ref: `#/components/schemas/${name}` };
}

export const problem = (description: string) => ({
  description,
  content: { "application/problem+json": { schema: ref("Problem") } },
});

/** The components section: every named schema, output side, and every event's envelope. */
export function componentSchemas() {
  return {
    ...Object.fromEntries(
      Object.entries(COMPONENTS).map(([name, schema]) => [name, schemaOf(schema, "output")]),
    ),
    ...Object.fromEntries(
      Object.entries(EVENT_ENVELOPES).map(([type, envelope]) => [
        eventComponentName(type),
        schemaOf(envelope, "output"),
      ]),
    ),
  };
}
