import { z } from "zod";

/** Length in Unicode characters (code points), as the contract counts them, not UTF-16 units. */
export function chars(min: number, max: number) {
  return z.string().superRefine((value, ctx) => {
    const length = [...value].length;
    if (length < min)
      ctx.addIssue({ code: "custom", message: `must be at least ${min} characters (got ${length})` });
    if (length > max)
      ctx.addIssue({ code: "custom", message: `must be at most ${max} characters (got ${length})` });
  });
}

/** An optional field that also accepts null as "not supplied", normalised to null. */
export function optional<T extends z.ZodType>(schema: T) {
  return schema.nullish().transform((v) => v ?? null);
}
