import { z } from "zod";
import { callbackUrlSchema } from "./callback-url";
import { metadataSchema } from "./metadata";
import { chars, line, optional } from "./text";

export const FEEDBACK_TYPES = ["bug", "feature", "feedback"] as const;
export const SEVERITIES = ["low", "medium", "high", "critical"] as const;
export type FeedbackType = (typeof FEEDBACK_TYPES)[number];
/**
 * An item's place in the owner's triage. `resolved` is the contract's resolved = true, and only it;
 * every other status leaves the contract's `resolved` false.
 */
export const FEEDBACK_STATUSES = [
  "open",
  "acknowledged",
  "needs_info",
  "in_progress",
  "wont_fix",
  "duplicate",
  "spam",
  "resolved",
] as const;
export type FeedbackStatus = (typeof FEEDBACK_STATUSES)[number];
export type Severity = (typeof SEVERITIES)[number];

/** Body of POST /api/namespace/feedback (contract 2.1, limits of section 8). */
export const submitFeedbackSchema = z.strictObject({
  namespace: line(3, 30),
  type: z.enum(FEEDBACK_TYPES, { error: `must be one of: ${FEEDBACK_TYPES.join(", ")}` }),
  title: line(3, 200),
  description: chars(10, 10_000),
  severity: optional(z.enum(SEVERITIES, { error: `must be one of: ${SEVERITIES.join(", ")}` })),
  steps: optional(z.array(chars(0, 500)).max(20, { error: "must have at most 20 items" })),
  expected: optional(chars(0, 2000)),
  actual: optional(chars(0, 2000)),
  context: optional(chars(0, 50_000)),
  metadata: optional(metadataSchema),
  callbackUrl: optional(callbackUrlSchema),
  duplicateOf: optional(line(1, 100)).meta({
    description:
      "The id of one of the namespace's published known issues (GET /api/namespace/known-issues) this report is about: it joins that issue, and a callback hears when the issue is resolved",
  }),
});
export type SubmitFeedbackInput = z.output<typeof submitFeedbackSchema>;

/** Query of GET /api/namespace/feedback. */
export const getFeedbackQuery = z.strictObject({ id: line(1, 100) });
