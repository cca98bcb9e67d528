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
