import { z } from "zod";
import { FEEDBACK_TYPES, SEVERITIES } from "./feedback";
import { line } from "./text";

const limit = z.coerce
  .number({ error: "must be a whole number from 1 to 100" })
  .int({ error: "must be a whole number from 1 to 100" })
  .min(1, { error: "must be a whole number from 1 to 100" })
  .max(100, { error: "must be a whole number from 1 to 100" })
  .default(50);
const cursor = z.string().min(1).max(512).optional();

/** Query of GET /api/namespace/list. */
export const listQuerySchema = z.strictObject({
  namespace: line(3, 30),
  limit,
  cursor,
  type: z.enum(FEEDBACK_TYPES, { error: `must be one of: ${FEEDBACK_TYPES.join(", ")}` }).optional(),
  severity: z.enum(SEVERITIES, { error: `must be one of: ${SEVERITIES.join(", ")}` }).optional(),
  /** Only open (false) or only resolved (true) items. */
  resolved: z
    .enum(["true", "false"], { error: "must be true or false" })
    .transform((v) => v === "true")
    .optional(),
  /** Case-insensitive text searched for in the title and the description. */
  q: line(1, 200).optional(),
});
export type ListQuery = z.output<typeof listQuerySchema>;

/** Query of GET /api/namespace/status. */
export const statusQuerySchema = z.strictObject({ namespace: line(3, 30).optional(), limit, cursor });
export type StatusQuery = z.output<typeof statusQuerySchema>;

/** Query of GET /api/dashboard/counts. */
export const countsQuerySchema = z.strictObject({ namespace: line(3, 30) });
