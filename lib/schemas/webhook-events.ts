import { z } from "zod";
import { FEEDBACK_STATUSES, FEEDBACK_TYPES, SEVERITIES } from "./feedback";
import { MEMBER_ROLES } from "./members";

// What a namespace's webhook receives. The outbox is typed by these shapes, and the OpenAPI document
// publishes them (its `webhooks` section), so receivers and senders cannot drift apart.

const timestamp = z.string().meta({ description: "ISO 8601 UTC timestamp with milliseconds" });
const usd = z.string().meta({ description: 'USD as a decimal string, e.g. "0.5"' });
const count = z.number().int().min(0);

/**
 * The events an owner chooses among (PATCH /webhook `events`); a new namespace gets every one.
 * `webhook.test` is always sent on request, and `digest.daily` follows the `digest` setting.
 */
export const WEBHOOK_EVENTS = [
  "feedback.created",
  "feedback.resolved",
  "feedback.status_changed",
  "feedback.confirmed",
  "feedback.disputed",
  "reward.paid",
] as const;
export type SubscribableEvent = (typeof WEBHOOK_EVENTS)[number];

/**
 * The team's changes, always sent to a namespace with a webhook (like a test, never filtered by `events`):
 * who may read and act on the inbox is the owner's to know of, whatever else it chose.
 */
const TEAM_EVENTS = [
  "member.added",
  "member.removed",
  "namespace.transfer_proposed",
  "namespace.transferred",
] as const;

/** Whether an event is one of the team's (TEAM_EVENTS). */
export const isTeamEvent = (type: string): boolean => (TEAM_EVENTS as readonly string[]).includes(type);

/** The newest items of a digest's day, at most this many. */
export const DIGEST_NEWEST_MAX = 5;

/** A submitter's answer to a resolution: the same fields whether it confirms or disputes it. */
const answerOf = (note: string) =>
  z.strictObject({
    id: z.string(),
    namespace: z.string(),
    note: z.string().nullable().meta({ description: note }),
    submitter: z.string().meta({ description: "The wallet that submitted the item and answered" }),
    resolvedAt: timestamp.meta({ description: "The resolution it answered" }),
    answeredAt: timestamp,
  });

export const webhookEventData = {
  "feedback.created": z
    .strictObject({
      id: z.string(),
      namespace: z.string(),
      type: z.enum(FEEDBACK_TYPES),
      title: z.string(),
      severity: z.enum(SEVERITIES).nullable(),
      createdAt: timestamp,
    })
    .meta({ description: "A paid item arrived in a registered namespace." }),
  "feedback.resolved": z
    .strictObject({
      id: z.string(),
      namespace: z.string(),
      resolvedAt: timestamp,
      resolvedBy: z.string(),
      message: z.string().nullable(),
      rewardAmount: usd.nullable(),
    })
    .meta({
      description: "The owner resolved an item; rewardAmount is set when the resolve carried a reward.",
    }),
  "feedback.status_changed": z
    .strictObject({
      id: z.string(),
      namespace: z.string(),
      from: z.enum(FEEDBACK_STATUSES),
      to: z.enum(FEEDBACK_STATUSES),
      message: z.string().nullable().meta({ description: "The owner's message to the submitter, if any" }),
      changedBy: z.string().meta({ description: 'The wallet that made the change, or "service"' }),
      changedAt: timestamp,
    })
    .meta({
      description:
        "An item's status changed: triage, a resolve (also sent as feedback.resolved), a submitter's follow-up reopening it, or a refunded reward reopening it. One event per item.",
    }),
  "feedback.confirmed": answerOf("What the submitter said, if anything").meta({
    description: "The submitter confirmed that the resolution of its item fixed it.",
  }),
  "feedback.disputed": answerOf("What still fails, in the submitter's words").meta({
    description:
      "The submitter said the resolution did not fix its item: the item is open again (also sent as feedback.status_changed). A reward already paid stays paid.",
  }),
  "reward.paid": z
    .strictObject({
      id: z.string(),
      namespace: z.string(),
      amount: usd,
      recipient: z.string(),
      txHash: z.string(),
    })
    .meta({ description: "A reward reached the submitter's wallet on Tempo (sent once per reward)." }),
  "member.added": z
    .strictObject({
      namespace: z.string(),
      wallet: z.string(),
      role: z.enum(MEMBER_ROLES),
      previousRole: z.enum(MEMBER_ROLES).nullable().meta({
        description: "The role it had before, when this changed a member's role; null for a new member",
      }),
      by: z.string().meta({ description: "The wallet that added it: the owner, or an admin" }),
      at: timestamp,
    })
    .meta({ description: "A wallet joined the namespace's team, or a member's role changed." }),
  "member.removed": z
    .strictObject({
      namespace: z.string(),
      wallet: z.string(),
      role: z.enum(MEMBER_ROLES),
      by: z
        .string()
        .meta({ description: "The wallet that removed it: the owner, an admin, or the member itself" }),
      at: timestamp,
    })
    .meta({ description: "A member left the namespace's team: it can no longer read or act on the inbox." }),
  "namespace.transfer_proposed": z
    .strictObject({
      namespace: z.string(),
      to: z.string(),
      by: z.string(),
      proposedAt: timestamp,
      expiresAt: timestamp,
    })
    .meta({ description: "The owner proposed a new owner, who becomes it by accepting before expiresAt." }),
  "namespace.transferred": z
    .strictObject({
      namespace: z.string(),
      from: z
        .string()
        .meta({ description: "The previous owner, now an admin until the new owner removes it" }),
      to: z.string(),
      at: timestamp,
    })
    .meta({ description: "The proposed wallet accepted: it owns the namespace from now on." }),
  "webhook.test": z
    .strictObject({ namespace: z.string(), message: z.string() })
    .meta({ description: "Sent on request from the dashboard or POST /api/namespace/webhook/test." }),
  "digest.daily": z
    .strictObject({
      namespace: z.string(),
      date: z.string().meta({ description: "The UTC day summarised, YYYY-MM-DD" }),
      from: timestamp,
      to: timestamp,
      created: z.strictObject({ total: count, bug: count, feature: count, feedback: count }),
      newest: z
        .array(
          z.strictObject({
            id: z.string(),
            type: z.enum(FEEDBACK_TYPES),
            title: z.string(),
            severity: z.enum(SEVERITIES).nullable(),
          }),
        )
        .max(DIGEST_NEWEST_MAX),
      statusChanges: z.strictObject({
        total: count,
        to: z
          .strictObject(
            Object.fromEntries(FEEDBACK_STATUSES.map((s) => [s, count])) as Record<
              (typeof FEEDBACK_STATUSES)[number],
              typeof count
            >,
          )
          .meta({ description: "How many changes went into each status (resolved: the resolutions)" }),
      }),
      rewards: z.strictObject({ count, amount: usd }),
    })
    .meta({
      description:
        "With digest daily: one summary a day, shortly after 00:00 UTC, of the UTC day before: new items by type, status changes and resolutions, rewards paid. Not sent for a day with none of these.",
    }),
} as const;

export type WebhookEventType = keyof typeof webhookEventData;
export type WebhookEventDataOf<T extends WebhookEventType> = z.input<(typeof webhookEventData)[T]>;

/** The JSON body of every delivery: the event's type, when it happened, and its data. */
export function webhookEnvelopeSchema<T extends WebhookEventType>(type: T) {
  return z.strictObject({ type: z.literal(type), timestamp, data: webhookEventData[type] });
}
