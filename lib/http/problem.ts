import type { AppError, ERROR_STATUS } from "./errors";
import { API_SECURITY_HEADERS, apiCacheControl } from "./security-headers";

const TITLES: Partial<Record<keyof typeof ERROR_STATUS, string>> = {
  "validation-failed": "Validation failed",
  "payment-required": "Payment required",
  "authentication-required": "Authentication Required",
  "invalid-json": "Invalid JSON",
  internal: "Internal error",
};

function title(code: string): string {
  return TITLES[code as keyof typeof TITLES] ?? code.replace(/-/g, " ").replace(/^./, (c) => c.toUpperCase());
}

/** Renders an AppError as an `application/problem+json` response. */
export function problemResponse(error: AppError, instance?: string): Response {
  const body = {
    type: error.extra.type ?? `/problems/${error.code}`,
    title: title(error.code),
    status: error.status,
    detail: error.detail,
    ...(instance ? { instance } : {}),
    ...(error.extra.errors ? { errors: error.extra.errors } : {}),
    ...error.extra.body,
  };
  const text = JSON.stringify(body);
  return new Response(text, {
    status: error.status,
    headers: {
      ...API_SECURITY_HEADERS,
      "content-type": "application/problem+json",
      "cache-control": apiCacheControl(text),
      ...error.extra.headers,
    },
  });
}
