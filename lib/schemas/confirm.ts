import { z } from "zod";
import { RESOLVE_MESSAGE_MAX } from "./resolve";
import { chars, line, optional } from "./text";

/** A submitter's answers to a resolution of its report. */
export const CONFIRM_OUTCOMES = ["fixed", "not_fixed"] as const;

/**
 * Body of POST /api/namespace/feedback/confirm: the submitter says whether the resolution of its report
 * fixed it. Free, signed in as the submitter; once per resolution.
 */
export const confirmFixSchema = z.strictObject({
  id: line(1, 100).meta({ description: "The resolved item's id" }),
  outcome: z.enum(CONFIRM_OUTCOMES, { error: `must be one of: ${CONFIRM_OUTCOMES.join(", ")}` }).meta({
    description:
      "fixed: the resolution is confirmed. not_fixed: the item is open again, with the note in its history",
  }),
  note: optional(chars(0, RESOLVE_MESSAGE_MAX)).meta({
    description: "What the submitter saw: shown to the owner in the item's history",
  }),
});
export type ConfirmFixInput = z.output<typeof confirmFixSchema>;
