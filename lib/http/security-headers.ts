/**
 * Sent with every API and discovery answer: JSON and text never run scripts, load anything or get
 * framed, are never sniffed as another type, and never leak the URL they were fetched from.
 */
export const API_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  "content-security-policy": "default-src 'none'; frame-ancestors 'none'",
  "x-content-type-options": "nosniff",
  "x-frame-options": "DENY",
  "referrer-policy": "no-referrer",
  "cross-origin-resource-policy": "same-origin",
};

/**
 * Cache-Control for an API answer: never stored, and under 1 KiB also `no-transform`, which keeps the
 * server's gzip off it: Next.js compresses every streamed answer, and for a small one gzip costs more CPU
 * than it saves.
 */
export function apiCacheControl(body: string): string {
  return body.length < 1024 ? "no-store, no-transform" : "no-store";
}
