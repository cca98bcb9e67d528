import "server-only";
import { createHash, timingSafeEqual } from "node:crypto";
import { AppError } from "@/lib/http/errors";

/** Compares digests, so the time taken says nothing about how much of the token matched. */
function bearerMatches(header: string | null, token: string): boolean {
  const given = /^Bearer (.+)$/i.exec(header ?? "")?.[1]?.trim();
  if (!given) return false;
  const digest = (s: string) => createHash("sha256").update(s).digest();
  return timingSafeEqual(digest(given), digest(token));
}

/**
 * Lets the request through only with `Authorization: Bearer <token>`: 404 while no token is configured
 * (the endpoint is off), 401 with a wrong token or none. `name` is the variable, `realm` the challenge's.
 */
export function requireBearer(
  request: Request,
  token: string | undefined,
  name: string,
  realm: string,
): void {
  if (!token) throw new AppError("not-found", "Nothing is served here.");
  if (!bearerMatches(request.headers.get("authorization"), token)) {
    throw new AppError("unauthorized", `Send ${name} as \`Authorization: Bearer <token>\`.`, {
      headers: { "www-authenticate": `Bearer realm="${realm}"` },
    });
  }
}
