/**
 * A one-line description of an error that is safe to log: chain and HTTP client errors embed request
 * bodies (signed authorizations, proofs), so long hex runs and base64 blobs are cut out.
 */
export function describeError(error: unknown): string {
  const e = error as { name?: string; shortMessage?: string; message?: string } | undefined;
  const text = e?.shortMessage ?? e?.message ?? String(error);
  const redacted = text
    .replace(/0x[0-9a-fA-F]{66,}/g, "0x…")
    .replace(/[A-Za-z0-9+/=_-]{120,}/g, "…")
    .slice(0, 500);
  return `${e?.name ?? "Error"}: ${redacted}`;
}
