import { z } from "zod";
import { callbackSecretField, callbackUrlSchema } from "./callback-url";
import { FEEDBACK_STATUSES } from "./feedback";
import { line } from "./text";

// A reporter's callback: events about its own report, POSTed to a URL it chose and signed with a secret
// of its own (Standard Webhooks). These shapes type the outbox and are published in the documents.

/** Body of PATCH /api/namespace/feedback/callback: the reporter replaces or removes its report's callback. */
export const updateCallbackSchema = z.strictObject({
  id: line(1, 100).meta({ description: "The id of an item you submitted" }),
  callbackUrl: callbackUrlSchema.nullable().meta({
    description: "The new callback URL (a new secret comes with it), or null to stop the events",
  }),
});
export type UpdateCallbackInput = z.output<typeof updateCallbackSchema>;

/** 200 of PATCH /api/namespace/feedback/callback. */
export const updateCallbackResponseSchema = z.strictObject({
  id: z.string(),
  callbackUrl: z.string().nullable(),
  callbackSecret: callbackSecretField.optional(),
});

const timestamp = z.string().meta({ description: "ISO 8601 UTC timestamp with milliseconds" });
const status = z.enum(FEEDBACK_STATUSES).meta({ description: "The report's status after the change" });
const report = { id: z.string(), namespace: z.string(), status };

/** What a callback receives: only what the reporter may read of its own report, never anyone else's. */
export const callbackEventData = {
  "report.status_changed": z
    .strictObject({
      ...report,
      previousStatus: status,
      changedAt: timestamp,
      message: z.string().nullable().meta({ description: "The owner's message, if any" }),
      question: z
        .string()
        .optional()
        .meta({ description: "With status needs_info: the owner's question; answer it with a follow-up" }),
    })
    .meta({ description: "The report's status changed (not to or from resolved)." }),
  "report.resolved": z
    .strictObject({
      ...report,
      resolvedAt: timestamp,
      message: z.string().nullable(),
      reward: z
        .strictObject({
          amount: z.string().meta({ description: 'USD as a decimal string, e.g. "0.5"' }),
          txHash: z.string().meta({ description: "The reward's transfer on Tempo" }),
        })
        .nullable()
        .meta({ description: "The reward, once it is on chain (a rewarded resolution is sent then)" }),
      knownIssue: z.string().optional().meta({
        description:
          "Set when the report was filed as \"me too\" of this known issue (duplicateOf) and the owner resolved the issue: the report is resolved with it, and message is the owner's public note (null without one), never its message to the issue's own reporter",
      }),
    })
    .meta({
      description:
        "The owner resolved the report (confirm the fix with POST /feedback/confirm), or the known issue it was filed as a duplicate of (knownIssue).",
    }),
  "report.reopened": z
    .strictObject({
      ...report,
      previousStatus: z.literal("resolved"),
      reopenedAt: timestamp,
      message: z.string().nullable(),
    })
    .meta({ description: "A resolved report is open again (the owner reopened it, or you said not fixed)." }),
  "report.merged": z
    .strictObject({ ...report, mergedAt: timestamp })
    .meta({ description: "The owner merged the report with others about the same issue." }),
} as const;

export type CallbackEventType = keyof typeof callbackEventData;
export type CallbackEventDataOf<T extends CallbackEventType> = z.input<(typeof callbackEventData)[T]>;

/** The JSON body of every callback delivery: the event's type, when it happened, and its data. */
export function callbackEnvelopeSchema<T extends CallbackEventType>(type: T) {
  return z.strictObject({ type: z.literal(type), timestamp, data: callbackEventData[type] });
}
