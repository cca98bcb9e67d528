import { z } from "zod";
import { callbackSecretField } from "./callback-url";
import { CONFIRM_OUTCOMES } from "./confirm";
import { FEEDBACK_STATUSES, FEEDBACK_TYPES, SEVERITIES } from "./feedback";
import { WEBHOOK_DIGESTS, WEBHOOK_FORMATS } from "./webhook";
import { WEBHOOK_EVENTS } from "./webhook-events";

// Response shapes, exactly as the routes answer them: the OpenAPI document is built from these, and
// its test checks real answers against them. Success bodies are strict: no field beyond these.

const timestamp = z.string().meta({ description: "ISO 8601 UTC timestamp with milliseconds" });
const nullableString = z.string().nullable();

/** 200 of POST /api/namespace/register (contract 4.1). */
export const registerResponseSchema = z.strictObject({
  namespace: z.string(),
  ownerWallet: z.string(),
  existingFeedbackLinked: z.number().int().min(0),
  createdAt: timestamp,
});

/** 200 of POST /api/namespace/feedback (contract 4.2). */
export const submitResponseSchema = z.strictObject({
  id: z.string(),
  namespace: z.string(),
  registered: z.boolean(),
  createdAt: timestamp,
  callbackSecret: callbackSecretField.optional(),
  joinedKnownIssue: z.string().nullable().optional().meta({
    description:
      "With duplicateOf only: the known issue the report joined (its group's head), or null when the issue could no longer be joined by the time the payment was stored (withdrawn, hidden, resolved, spam) and the report was filed on its own",
  }),
});

const target = z.strictObject({ kind: z.string(), value: z.string(), host: z.string() });

const listedFields = {
  id: z.string(),
  namespace: z.string(),
  targets: z.array(target),
  type: z.enum(FEEDBACK_TYPES),
  title: z.string().meta({ description: "Over 80 characters, lists show 77 characters and '...'" }),
  description: z.string(),
  severity: z.enum(SEVERITIES).nullable(),
  verified: z.boolean(),
  submitterDid: nullableString,
  submitterWallet: nullableString,
  resolved: z.boolean(),
  resolveMessage: nullableString,
  rewardAmount: nullableString,
  createdAt: timestamp,
  steps: z.array(z.string()).nullable(),
  expected: nullableString,
  actual: nullableString,
  metadata: z.record(z.string(), z.unknown()).nullable(),
  resolvedAt: timestamp.nullable(),
  resolvedBy: nullableString,
  rewardTxHash: nullableString,
  status: z.enum(FEEDBACK_STATUSES).meta({
    description:
      "The owner's triage status, beside the contract's fields: resolved exactly when resolved is true",
  }),
  confirmation: z
    .strictObject({
      outcome: z.enum(CONFIRM_OUTCOMES),
      note: nullableString,
      at: timestamp,
      current: z.boolean().meta({
        description:
          "Whether the answer still stands: fixed while the item stays resolved by the resolution it answered; not_fixed until the item is resolved again",
      }),
    })
    .nullable()
    .meta({
      description:
        "The submitter's last answer to a resolution (POST /feedback/confirm): fixed, or not_fixed (which reopened the item); null when it never answered",
    }),
};

/** The owner's own words on an item: never shown to its reporter, nor anyone else. */
const labels = z.array(z.string()).meta({ description: "The owner's labels, sorted" });

/** Where a report stands among its duplicates, and the owner's labels: shown to the namespace's owner only. */
const groupingFields = {
  labels,
  groupId: nullableString.meta({
    description: "The report heading the group of duplicates this one belongs to; null when it heads its own",
  }),
  groupKind: z.enum(["merged", "suggested"]).nullable().meta({
    description:
      "How it joined the group: merged by the owner, or suggested by the service as alike (a suggestion changes nothing else); null for a head",
  }),
  reportCount: z.number().int().min(1).meta({
    description: "On a group's head: the reports in the group, itself included (votes); 1 otherwise",
  }),
};

/** One change in an item's history: a status change (with the owner's message) or a follow-up. */
const historyEntrySchema = z.strictObject({
  at: timestamp,
  kind: z.enum(["status", "follow_up", "merged", "unmerged", "suggested", "labels", "confirmation"]).meta({
    description:
      "status: a status change; follow_up: the submitter's answer to a question; merged, unmerged, suggested: its group; labels: the owner's labels (the owner's view only, as suggested); confirmation: the submitter's answer to a resolution (details.outcome)",
  }),
  actor: z.string().meta({ description: 'The wallet that made the change, or "service"' }),
  from: z.enum(FEEDBACK_STATUSES).nullable(),
  to: z.enum(FEEDBACK_STATUSES).nullable(),
  message: nullableString,
  details: z.record(z.string(), z.unknown()).nullable(),
});
const history = z.array(historyEntrySchema).meta({ description: "Every change to the item, oldest first" });

const ownerOnly = (description: string) =>
  `${description}. For the namespace's owner only: absent for the submitter`;

/**
 * 200 of GET /api/namespace/feedback?id=: the full stored record (contract 2.2) with namespace and
 * context; the owner also sees its group, the submitter its own report only.
 */
export const feedbackRecordSchema = z.strictObject({
  ...listedFields,
  labels: labels.optional().meta({ description: ownerOnly("The owner's labels, sorted") }),
  groupId: groupingFields.groupId.optional().meta({ description: ownerOnly("The head of its group") }),
  groupKind: groupingFields.groupKind
    .optional()
    .meta({ description: ownerOnly("merged by the owner, or suggested by the service") }),
  reportCount: groupingFields.reportCount
    .optional()
    .meta({ description: ownerOnly("On a group's head: the reports in the group") }),
  context: nullableString,
  history,
  group: z
    .array(
      z.strictObject({
        id: z.string(),
        title: z.string(),
        status: z.enum(FEEDBACK_STATUSES),
        groupKind: z.enum(["merged", "suggested"]).nullable(),
        submitterWallet: nullableString,
        meToo: z.boolean().meta({
          description:
            'Filed as "me too" of a published known issue (duplicateOf): resolved with the issue, reading its publicNote, never its message',
        }),
        createdAt: timestamp,
      }),
    )
    .optional()
    .meta({
      description: ownerOnly(
        "The other reports of its group of duplicates, oldest first (at most 100), each merged or only suggested",
      ),
    }),
});

const fragments = z.array(z.strictObject({ text: z.string(), match: z.boolean() }));

/** 200 of GET /api/namespace/export?format=json: the view's records, without their histories. */
export const exportRecordsSchema = z.array(
  z.strictObject({ ...listedFields, ...groupingFields, context: nullableString }),
);

/** An item of the owner's list: the record without context, the title shortened; matches when searched. */
const listItemSchema = z.strictObject({
  ...listedFields,
  ...groupingFields,
  groupReports: z.number().int().min(1).optional().meta({
    description:
      "With grouped=true: the reports of the group this row stands for (a row is its head, or its newest report that matches the filters when the head does not)",
  }),
  reporters: z
    .array(z.string())
    .optional()
    .meta({ description: "With grouped=true: the wallets that filed the group's reports (at most 50)" }),
  highlights: z.strictObject({ title: fragments, description: fragments }).optional().meta({
    description:
      "With q: the title and an excerpt of the description as fragments, those that matched marked (match: true)",
  }),
});

/** An item of the submitter's status: a list item, its history, and its resolution once resolved. */
const statusItemSchema = z.strictObject({
  ...listedFields,
  history,
  callbackUrl: nullableString.meta({
    description:
      "Where events about your report are POSTed (PATCH /api/namespace/feedback/callback replaces or removes it); null: none. Only you read it; its secret was shown once, when it was set",
  }),
  resolution: z
    .strictObject({
      message: nullableString,
      resolvedAt: timestamp.nullable(),
      rewardAmount: nullableString,
      rewardTxHash: nullableString,
    })
    .optional(),
});

const nextCursor = z.string().optional().meta({ description: "Present when more items remain" });

/** 200 of GET /api/namespace/list (contract 4.4). */
export const listResponseSchema = z.strictObject({
  namespace: z.string(),
  count: z.number().int().min(0),
  feedback: z.array(listItemSchema),
  nextCursor,
});

/** 200 of GET /api/namespace/status (contract 4.5). */
export const statusResponseSchema = z.strictObject({
  submitter: z.string(),
  count: z.number().int().min(0),
  feedback: z.array(statusItemSchema),
  nextCursor,
});

/** 200 of POST /api/namespace/resolve (contract 4.3). */
export const resolveResponseSchema = z.strictObject({
  id: z.string(),
  namespace: z.string(),
  resolved: z.boolean(),
  resolvedAt: timestamp,
  resolvedBy: z.string(),
  message: z.string().optional(),
  reward: z.strictObject({ amount: z.string(), recipient: z.string(), txHash: z.string() }).optional(),
  alsoResolved: z
    .array(z.string())
    .optional()
    .meta({ description: "With alsoResolve: the items it named that were resolved too (those still open)" }),
});

/** 200 of POST /api/namespace/feedback/status. */
export const changeStatusResponseSchema = z.strictObject({
  namespace: z.string(),
  status: z.enum(FEEDBACK_STATUSES),
  changedAt: timestamp,
  changed: z
    .array(z.strictObject({ id: z.string(), from: z.enum(FEEDBACK_STATUSES) }))
    .meta({ description: "The items that changed, with the status each left" }),
  unchanged: z.array(z.string()).meta({ description: "The items that already had the status" }),
});

/** 200 of POST /api/namespace/feedback/follow-up. */
export const followUpResponseSchema = z.strictObject({
  id: z.string().meta({ description: "The answer's entry in the item's history" }),
  feedbackId: z.string(),
  status: z.enum(FEEDBACK_STATUSES).meta({ description: "The item's status now: open again, for the owner" }),
  createdAt: timestamp,
  callbackSecret: callbackSecretField.optional(),
});

/** 200 of POST /api/namespace/feedback/confirm. */
export const confirmFixResponseSchema = z.strictObject({
  id: z.string(),
  namespace: z.string(),
  outcome: z.enum(CONFIRM_OUTCOMES),
  status: z.enum(FEEDBACK_STATUSES).meta({
    description: "The item's status now: still resolved after fixed, open again after not_fixed",
  }),
  confirmedAt: timestamp,
});

/** 200 of POST /api/namespace/feedback/merge. */
export const mergeResponseSchema = z.strictObject({
  namespace: z.string(),
  groupId: z.string().meta({ description: "The head of the group the reports joined" }),
  reportCount: z.number().int().min(1),
  merged: z.array(z.string()),
  moved: z
    .array(
      z.strictObject({
        id: z.string(),
        from: nullableString.meta({
          description: "The head of the group it was in; null when it headed its own",
        }),
      }),
    )
    .meta({
      description:
        "Every report whose group changed (the named ones and the members they brought), with where it was: what undoing the merge puts back",
    }),
});

/** 200 of POST /api/namespace/feedback/labels: each changed item with its labels now. */
export const changeLabelsResponseSchema = z.strictObject({
  namespace: z.string(),
  changed: z.array(z.strictObject({ id: z.string(), labels: z.array(z.string()) })),
  unchanged: z.array(z.string()),
});

/** 200 of POST /api/namespace/feedback/unmerge. */
export const unmergeResponseSchema = z.strictObject({ namespace: z.string(), unmerged: z.array(z.string()) });

/** 200 of GET and PATCH /api/namespace/webhook and of POST /api/namespace/webhook/rotate. */
export const webhookSettingsResponseSchema = z.strictObject({
  namespace: z.string(),
  url: nullableString.meta({ description: "Where events are POSTed; null sends nothing" }),
  secret: nullableString.meta({ description: "Standard Webhooks signing secret (whsec_...)" }),
  format: z.enum(WEBHOOK_FORMATS).meta({
    description: "standard: signed Standard Webhooks JSON; slack or discord: an unsigned chat message",
  }),
  events: z
    .array(z.enum(WEBHOOK_EVENTS))
    .meta({ description: "The events sent as they happen; webhook.test is always sent on request" }),
  digest: z.enum(WEBHOOK_DIGESTS).meta({ description: "daily: one digest.daily summary a day as well" }),
});

/** 202 of POST /api/namespace/webhook/test: the test event is queued, then delivered and logged. */
export const webhookTestResponseSchema = z.strictObject({
  namespace: z.string(),
  id: z.string().meta({ description: "The delivery's webhook-id" }),
  eventType: z.literal("webhook.test"),
  status: z.literal("pending"),
});

/** 202 of POST /api/namespace/webhook/deliveries/resend: a copy of the delivery is queued. */
export const webhookResendResponseSchema = z.strictObject({
  namespace: z.string(),
  id: z.string().meta({ description: "The new delivery's webhook-id" }),
  resentFrom: z.string().meta({ description: "The delivery it copies" }),
  eventType: z.string(),
  status: z.literal("pending"),
});

/** 200 of GET /api/namespace/webhook/deliveries: the delivery log, newest first. */
export const webhookDeliveriesResponseSchema = z.strictObject({
  namespace: z.string(),
  count: z.number().int().min(0),
  deliveries: z.array(
    z.strictObject({
      id: z.string(),
      eventType: z.string(),
      status: z.enum(["pending", "delivered", "failed"]),
      attempts: z.number().int().min(0),
      items: z
        .array(
          z.strictObject({
            id: z.string(),
            title: nullableString.meta({ description: "null when the item no longer exists" }),
            url: z.string().meta({ description: "The item in the owner's dashboard" }),
            events: z.array(z.string()).meta({ description: "Its events this delivery carried" }),
          }),
        )
        .meta({
          description:
            "The items the delivery is about: one for an event, several for a chat message that carried one owner action (its events are one delivery); none for webhook.test and digest.daily",
        }),
      lastStatusCode: z.number().int().nullable(),
      lastError: nullableString.meta({
        description:
          'Why the last attempt failed, in words: "connection refused", "DNS: no such host (…)", "HTTP 500"…',
      }),
      lastResponseExcerpt: nullableString.meta({
        description: "The first 500 characters of the receiver's last answer",
      }),
      sentBody: nullableString.meta({
        description: "The body of the last attempt, exactly as POSTed (JSON text); null before the first",
      }),
      lastAttemptAt: timestamp.nullable(),
      nextAttemptAt: timestamp.nullable().meta({ description: "Set while the delivery is pending" }),
      deliveredAt: timestamp.nullable(),
      createdAt: timestamp,
      resentFrom: nullableString.meta({ description: "On a re-send: the delivery it copies" }),
      resentAs: nullableString.meta({ description: "On a re-sent delivery: its copy" }),
    }),
  ),
});

/** Every refusal: RFC 9457 problem+json; payment and sign-in 402s add their challenges and `docs`. */
export const problemSchema = z.looseObject({
  type: z.string(),
  title: z.string(),
  status: z.number().int(),
  detail: z.string(),
  instance: z.string().optional(),
  errors: z.array(z.strictObject({ field: z.string(), message: z.string() })).optional(),
  price: z.strictObject({ amount: z.string(), currency: z.literal("USD") }).optional(),
  protocols: z.array(z.string()).optional(),
  docs: z.strictObject({ guide: z.string(), openapi: z.string() }).optional(),
  retryAfter: z.number().int().optional(),
});
