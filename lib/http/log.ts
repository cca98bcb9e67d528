type Described = { name?: string; shortMessage?: string; message?: string; code?: unknown; cause?: unknown };

/**
 * A one-line description of an error that is safe to log: chain and HTTP client errors embed request
 * bodies (signed authorizations, proofs), so long hex runs and base64 blobs are cut out. A failed query is
 * described by its cause (the database's code and words), never by its SQL and parameters, which span lines
 * and can carry what was being stored; line breaks are folded so it stays one line.
 */
export function describeError(error: unknown): string {
  let e = error as Described | undefined;
  if (e?.message?.startsWith("Failed query") && e.cause && typeof e.cause === "object") {
    e = e.cause as Described;
  }
  const text = e?.shortMessage ?? e?.message ?? String(error);
  const code = typeof e?.code === "string" ? ` (${e.code})` : "";
  const redacted = text
    .replace(/0x[0-9a-fA-F]{66,}/g, "0x…")
    .replace(/[A-Za-z0-9+/=_-]{120,}/g, "…")
    .replace(/\s*\n\s*/g, " ")
    .slice(0, 500);
  return `${e?.name ?? "Error"}${code}: ${redacted}`;
}
