import { type NextRequest, NextResponse } from "next/server";
import { pageContentSecurityPolicy } from "@/lib/http/csp";

/** Gives every page a fresh CSP nonce; Next.js reads it from the request's policy and stamps its scripts. */
export function proxy(request: NextRequest) {
  const nonce = Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString("base64");
  const policy = pageContentSecurityPolicy(nonce, process.env.NODE_ENV === "development");
  const headers = new Headers(request.headers);
  headers.set("x-nonce", nonce);
  headers.set("content-security-policy", policy);
  const response = NextResponse.next({ request: { headers } });
  response.headers.set("content-security-policy", policy);
  return response;
}

export const config = {
  matcher: [
    {
      // Pages only: API, discovery and operations answers (healthz, readyz, metrics, ops/) carry their own
      // strict policy (next.config.ts), static files need none.
      source:
        "/((?!api/|_next/static|_next/image|favicon.ico|openapi.json|llms.txt|.well-known/|healthz|readyz|metrics|ops/).*)",
      missing: [
        { type: "header", key: "next-router-prefetch" },
        { type: "header", key: "purpose", value: "prefetch" },
      ],
    },
  ],
};
