import { z } from "zod";

/**
 * Text that may span lines (descriptions, steps, messages) keeps tab, line feed and carriage return;
 * a single-line value (a name, a title, an id) keeps none. Both refuse every other C0/C1 control
 * character, NUL included: PostgreSQL cannot store NUL, and control bytes only hide or forge content.
 */
export type TextKind = "text" | "line";

// Control characters refused by each kind, as regex class ranges (one source for zod and JSON Schema).
const CONTROL_RANGES = {
  text: "\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F\\u007F-\\u009F",
  line: "\\u0000-\\u001F\\u007F-\\u009F",
} as const;
const CONTROL = {
  text: new RegExp(`[${CONTROL_RANGES.text}]`, "u"),
  line: new RegExp(`[${CONTROL_RANGES.line}]`, "u"),
} as const;
/** The JSON Schema `pattern` equivalent, for the OpenAPI document. */
const PATTERN = {
  text: `^[^${CONTROL_RANGES.text}]*$`,
  line: `^[^${CONTROL_RANGES.line}]*$`,
} as const;
// With the u flag a surrogate class matches only unpaired halves: pairs are read as one code point.
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;

/** Why a string is refused as `kind` text, or null when its characters are all acceptable. */
export function badCharacters(value: string, kind: TextKind): string | null {
  if (value.includes("\u0000")) return "must not contain NUL characters";
  if (LONE_SURROGATE.test(value)) return "must not contain unpaired UTF-16 surrogates";
  if (CONTROL[kind].test(value)) {
    return kind === "line"
      ? "must not contain control characters (including line breaks and tabs)"
      : "must not contain control characters other than tab, line feed and carriage return";
  }
  return null;
}

/**
 * A string of `min` to `max` Unicode characters (code points, as the contract counts them, not UTF-16
 * units), with no NUL, no unpaired surrogate and no control character `kind` does not allow.
 */
export function chars(min: number, max: number, kind: TextKind = "text") {
  return z
    .string()
    .superRefine((value, ctx) => {
      const bad = badCharacters(value, kind);
      if (bad) ctx.addIssue({ code: "custom", message: bad });
      const length = [...value].length;
      if (length < min)
        ctx.addIssue({ code: "custom", message: `must be at least ${min} characters (got ${length})` });
      if (length > max)
        ctx.addIssue({ code: "custom", message: `must be at most ${max} characters (got ${length})` });
    })
    .meta({ minLength: min, maxLength: max, pattern: PATTERN[kind] });
}

/** A single-line string: `chars` with no control characters at all. */
export function line(min: number, max: number) {
  return chars(min, max, "line");
}

/** An optional field that also accepts null as "not supplied", normalised to null. */
export function optional<T extends z.ZodType>(schema: T) {
  return schema.nullish().transform((v) => v ?? null);
}

/** A page size from a query string: a whole number from 1 to 100, `fallback` when left out. */
export function pageLimit(fallback: number) {
  const error = "must be a whole number from 1 to 100";
  return z.coerce.number({ error }).int({ error }).min(1, { error }).max(100, { error }).default(fallback);
}
