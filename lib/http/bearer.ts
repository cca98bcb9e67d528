import { createHash, timingSafeEqual } from "node:crypto";
import { AppError } from "./errors";

/** Compares digests, so the time taken says nothing about how much of the secret matched. */
function bearerMatches(header: string | null, secret: string): boolean {
  const given = /^Bearer (.+)$/i.exec(header ?? "")?.[1]?.trim();
  if (!given) return false;
  const digest = (s: string) => createHash("sha256").update(s).digest();
  return timingSafeEqual(digest(given), digest(secret));
}

/**
 * Refuses a request unless `secret` is configured (404: the endpoint is off) and the request carries it
 * as `Authorization: Bearer <secret>` (401). The header is never logged or echoed.
 */
export function requireBearer(request: Request, secret: string | undefined, realm: string): void {
  if (!secret) throw new AppError("not-found", "Nothing is served here.");
  if (!bearerMatches(request.headers.get("authorization"), secret)) {
    throw new AppError("unauthorized", `Send the ${realm} secret as \`Authorization: Bearer <secret>\`.`, {
      headers: { "www-authenticate": `Bearer realm="${realm}"` },
    });
  }
}
