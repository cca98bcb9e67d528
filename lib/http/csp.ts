import "server-only";
import { env } from "@/lib/env";

/**
 * The pages' Content-Security-Policy: scripts only with this response's nonce (Next.js stamps it on its
 * own scripts) and what those load ('strict-dynamic'); fetches only to us and the browser RPC.
 */
export function pageContentSecurityPolicy(nonce: string, dev: boolean): string {
  const e = env();
  const connect = ["'self'", ...(e.BROWSER_RPC_URL ? [new URL(e.BROWSER_RPC_URL).origin] : [])];
  const https = new URL(e.PUBLIC_ORIGIN).protocol === "https:";
  return [
    "default-src 'self'",
    // React needs eval in development only, to rebuild server error stacks in the browser.
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${dev ? " 'unsafe-eval'" : ""}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    `connect-src ${connect.join(" ")}`,
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    ...(https ? ["upgrade-insecure-requests"] : []),
  ].join("; ");
}
