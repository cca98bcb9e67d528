import { z } from "zod";
import { chars, optional } from "./text";

/** Body of POST /api/namespace/resolve (contract 4.3). */
export const resolveFeedbackSchema = z.strictObject({
  feedbackId: chars(1, 100),
  message: optional(chars(0, 2000)),
  rewardAmount: optional(
    z.string().regex(/^\d{1,12}(\.\d{1,6})?$/, {
      error: 'must be a decimal string of USD with at most 6 decimals, e.g. "0.5"',
    }),
  ),
});
export type ResolveFeedbackInput = z.output<typeof resolveFeedbackSchema>;
