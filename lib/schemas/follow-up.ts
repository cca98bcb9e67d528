import { z } from "zod";
import { submitFeedbackSchema } from "./feedback";
import { chars, line } from "./text";

const item = submitFeedbackSchema.shape;

/**
 * Body of POST /api/namespace/feedback/follow-up: the submitter's answer to an owner who asked for
 * more information (status needs_info), with any details it adds. Same price as a submission.
 */
export const followUpSchema = z.strictObject({
  feedbackId: line(1, 100),
  message: chars(1, 10_000),
  steps: item.steps,
  expected: item.expected,
  actual: item.actual,
  context: item.context,
  callbackUrl: item.callbackUrl,
});
export type FollowUpInput = z.output<typeof followUpSchema>;
