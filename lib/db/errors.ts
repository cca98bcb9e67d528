/** SQLSTATE codes the domain reacts to. */
export const SQLSTATE = { notNullViolation: "23502", uniqueViolation: "23505" } as const;

/** The SQLSTATE of a database error, through drizzle's wrapping, whichever driver raised it. */
export function sqlStateOf(error: unknown): string | undefined {
  let current = error;
  for (let depth = 0; current && depth < 5; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string" && /^[0-9A-Z]{5}$/.test(code)) return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}
