import { z } from "zod";
import { FEEDBACK_STATUSES } from "./feedback";
import { RESOLVE_MESSAGE_MAX } from "./resolve";
import { chars, line, optional } from "./text";

/** Most items one triage call changes: a page of the inbox. */
const TRIAGE_MAX_ITEMS = 100;

/** One to a page's worth of distinct item ids. */
const ids = z
  .array(line(1, 100))
  .min(1, { error: "must name at least one item" })
  .max(TRIAGE_MAX_ITEMS, { error: `must name at most ${TRIAGE_MAX_ITEMS} items` })
  .refine((list) => new Set(list).size === list.length, { error: "must not name an item twice" });

/** Body of POST /api/namespace/feedback/status: one status (and message) for one or many items. */
export const changeStatusSchema = z
  .strictObject({
    namespace: line(3, 30),
    feedbackIds: ids,
    status: z.enum(FEEDBACK_STATUSES, { error: `must be one of: ${FEEDBACK_STATUSES.join(", ")}` }),
    /** Shown to the submitter with the new status: the question of "needs_info", or why. */
    message: optional(chars(0, RESOLVE_MESSAGE_MAX)).meta({
      description:
        'Shown to the submitter with the new status. Required with "needs_info": it is the question the submitter answers.',
    }),
  })
  // "Needs info" without a question leaves the submitter an answer form and nothing to answer.
  .refine((v) => v.status !== "needs_info" || (v.message ?? "").trim() !== "", {
    path: ["message"],
    error: 'must hold the question for the submitter when status is "needs_info"',
  });
export type ChangeStatusInput = z.output<typeof changeStatusSchema>;

/** Body of POST /api/namespace/feedback/merge: file reports under the group of `into`. */
export const mergeSchema = z.strictObject({
  namespace: line(3, 30),
  into: line(1, 100),
  feedbackIds: ids,
});
export type MergeInput = z.output<typeof mergeSchema>;

/** Body of POST /api/namespace/feedback/unmerge: take reports out of their groups. */
export const unmergeSchema = z.strictObject({ namespace: line(3, 30), feedbackIds: ids });
export type UnmergeInput = z.output<typeof unmergeSchema>;

/** Most labels one item carries. */
export const MAX_LABELS = 10;

/** An owner's label: 1 to 30 characters, no commas (filters list several with commas), trimmed. */
const labelSchema = line(1, 30)
  .refine((v) => !v.includes(","), { error: "must not contain a comma" })
  .refine((v) => v.trim() === v, { error: "must not start or end with spaces" });

const labelList = z
  .array(labelSchema)
  .max(MAX_LABELS, { error: `must hold at most ${MAX_LABELS} labels` })
  .default([]);

/** Body of POST /api/namespace/feedback/labels: labels added to and removed from items, all or none. */
export const changeLabelsSchema = z
  .strictObject({ namespace: line(3, 30), feedbackIds: ids, add: labelList, remove: labelList })
  .refine((v) => v.add.length + v.remove.length > 0, {
    path: ["add"],
    error: "add or remove at least one label",
  });
export type ChangeLabelsInput = z.output<typeof changeLabelsSchema>;
