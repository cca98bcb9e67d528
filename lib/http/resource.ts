import "server-only";
import { env } from "@/lib/env";

/** The request's URL on the configured public origin; never trusts the Host header. */
export function publicUrl(request: Request): string {
  const url = new URL(request.url);
  return `${env().PUBLIC_ORIGIN}${url.pathname}${url.search}`;
}
