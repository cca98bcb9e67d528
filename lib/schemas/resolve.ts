import { z } from "zod";
import { formatUsd, parseUsd, USD_PATTERN } from "@/lib/money";
import { chars, line, optional } from "./text";

/** Largest reward, in USD micro-units (contract 4.3: the resolve price is 0 to 2 USD). */
export const MAX_REWARD_MICRO_USD = 2_000_000n;

/** Longest resolve message, in characters. */
export const RESOLVE_MESSAGE_MAX = 2000;

/** Most other items one resolve may name in alsoResolve: a page of the inbox. */
const ALSO_RESOLVE_MAX = 100;

/**
 * Body of POST /api/namespace/resolve (contract 4.3), plus `alsoResolve`: other items the owner
 * explicitly resolves with the same message (never rewarded), such as the duplicates of its group.
 */
export const resolveFeedbackSchema = z.strictObject({
  feedbackId: line(1, 100),
  alsoResolve: z
    .array(line(1, 100))
    .max(ALSO_RESOLVE_MAX, { error: `must name at most ${ALSO_RESOLVE_MAX} items` })
    .refine((ids) => new Set(ids).size === ids.length, { error: "must not name an item twice" })
    .default([])
    .meta({
      description:
        "Other items of the namespace to resolve with the same message and no reward, e.g. the duplicates of its group. Only the items named here change.",
    }),
  message: optional(chars(0, RESOLVE_MESSAGE_MAX)).meta({
    description: "For this item's reporter only (and the items named in alsoResolve)",
  }),
  publicNote: optional(chars(0, RESOLVE_MESSAGE_MAX)).meta({
    description:
      'For everyone else: every reporter who said "me too" of this item (duplicateOf) reads it as the message of its own resolution, and the published known issues list shows it. Without it they are resolved with no message.',
  }),
  rewardAmount: optional(
    z
      .string()
      .regex(USD_PATTERN, {
        error: 'must be a decimal string of USD with at most 6 decimals, e.g. "0.5"',
        abort: true,
      })
      .refine((v) => (parseUsd(v) ?? 0n) <= MAX_REWARD_MICRO_USD, {
        error: `must be at most ${formatUsd(MAX_REWARD_MICRO_USD)} (USD)`,
      }),
  ),
});
export type ResolveFeedbackInput = z.output<typeof resolveFeedbackSchema>;

/** The reward a resolve asks to pay, in micro-USD: 0 for none ("0" or no rewardAmount). */
export function rewardOf(input: ResolveFeedbackInput): bigint {
  return input.rewardAmount === null ? 0n : (parseUsd(input.rewardAmount) ?? 0n);
}
