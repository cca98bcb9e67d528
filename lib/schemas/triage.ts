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
export const changeStatusSchema = z.strictObject({
  namespace: line(3, 30),
  feedbackIds: ids,
  status: z.enum(FEEDBACK_STATUSES, { error: `must be one of: ${FEEDBACK_STATUSES.join(", ")}` }),
  /** Shown to the submitter with the new status: the question of "needs_info", or why. */
  message: optional(chars(0, RESOLVE_MESSAGE_MAX)),
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
