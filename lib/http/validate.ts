import type { z } from "zod";
import { type FieldError, validationError } from "./errors";

/** Parses input with a schema, or throws a 400 naming every bad field. */
export function parseInput<T extends z.ZodType>(schema: T, input: unknown): z.output<T> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const errors: FieldError[] = result.error.issues.map((issue) => {
    if (issue.code === "unrecognized_keys") {
      return { field: issue.keys.join(", "), message: "is not a field of this request" };
    }
    const field = issue.path.map(String).join(".") || "body";
    const message =
      issue.code === "invalid_type" && issue.input === undefined ? "is required" : issue.message;
    return { field, message };
  });
  throw validationError(errors);
}

/** Reads a URL's query string as a plain object (repeated keys: the last wins). */
export function queryOf(request: Request): Record<string, string> {
  return Object.fromEntries(new URL(request.url).searchParams.entries());
}
