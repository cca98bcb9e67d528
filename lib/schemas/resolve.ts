import { z } from "zod";
import { chars, line, optional } from "./text";

/** Largest reward, in USD micro-units (contract 4.3: the resolve price is 0 to 2 USD). */
export const MAX_REWARD_MICRO_USD = 2_000_000n;

const usd = /^(\d{1,12})(?:\.(\d{1,6}))?$/;

/** Body of POST /api/namespace/resolve (contract 4.3). */
export const resolveFeedbackSchema = z.strictObject({
  feedbackId: line(1, 100),
  message: optional(chars(0, 2000)),
  rewardAmount: optional(
    z
      .string()
      .regex(usd, {
        error: 'must be a decimal string of USD with at most 6 decimals, e.g. "0.5"',
        abort: true,
      })
      .refine((v) => Number(v) <= 2, { error: "must be at most 2 (USD)" }),
  ),
});
export type ResolveFeedbackInput = z.output<typeof resolveFeedbackSchema>;
