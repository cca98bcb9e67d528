import "server-only";
import { createHash, randomBytes } from "node:crypto";
import { and, eq, gt, isNull, lte, sql } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { sessions } from "@/lib/db/schema";
import { env } from "@/lib/env";
import { AppError } from "@/lib/http/errors";
import type { Identity } from "@/lib/schemas/session";

/** How long a browser session lasts after a sign-in: one working day, then sign in again. */
const SESSION_TTL_SECONDS = 8 * 60 * 60;

// 256 random bits, base64url: exactly 43 characters. Anything else is not one of ours.
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;
const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);
const CLEANUP_INTERVAL_MS = 60_000;
let lastCleanup = 0;

const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");
const secure = () => new URL(env().PUBLIC_ORIGIN).protocol === "https:";

/** The cookie's name; `__Host-` (Secure, Path=/, no Domain) whenever the service is served over https. */
function sessionCookieName(): string {
  return secure() ? "__Host-session" : "session";
}

function readCookie(cookieHeader: string | null, name: string): string | null {
  for (const part of (cookieHeader ?? "").split(";")) {
    const at = part.indexOf("=");
    if (at > 0 && part.slice(0, at).trim() === name) return part.slice(at + 1).trim();
  }
  return null;
}

function cookie(value: string, maxAge: number): string {
  const flags = `Path=/; Max-Age=${maxAge}; HttpOnly; SameSite=Strict${secure() ? "; Secure" : ""}`;
  return `${sessionCookieName()}=${value}; ${flags}`;
}

/** The Set-Cookie value that clears the session cookie. */
export function clearedSessionCookie(): string {
  return cookie("", 0);
}

/**
 * A cookie rides along with any request the browser makes, so a state-changing request that relies on
 * it must come from our own pages: its Origin (or, without one, Sec-Fetch-Site) must say so.
 */
export function assertSameOrigin(request: Request): void {
  if (SAFE_METHODS.has(request.method.toUpperCase())) return;
  const origin = request.headers.get("origin");
  const ok = origin
    ? origin === env().PUBLIC_ORIGIN
    : request.headers.get("sec-fetch-site") === "same-origin";
  if (!ok) {
    throw new AppError(
      "forbidden",
      "This request came from another site, so your session cookie cannot be used for it.",
    );
  }
}

/** Stores a new session for a verified wallet; returns the Set-Cookie value carrying its token. */
export async function openSession(identity: Identity): Promise<{ setCookie: string; expiresAt: Date }> {
  const db = await getDb();
  if (Date.now() - lastCleanup > CLEANUP_INTERVAL_MS) {
    lastCleanup = Date.now();
    await db.delete(sessions).where(lte(sessions.expiresAt, sql`now()`));
  }
  const token = randomBytes(32).toString("base64url");
  const expiresAt = new Date(Date.now() + SESSION_TTL_SECONDS * 1000);
  await db.insert(sessions).values({
    tokenHash: hashToken(token),
    address: identity.address,
    chainId: identity.chainId,
    contractOn: identity.contractOn,
    expiresAt,
  });
  return { setCookie: cookie(token, SESSION_TTL_SECONDS), expiresAt };
}

/** The live session a Cookie header names, or null; for reads that are not requests (server rendering). */
export async function sessionOfCookies(
  cookieHeader: string | null,
): Promise<(Identity & { expiresAt: Date }) | null> {
  const token = readCookie(cookieHeader, sessionCookieName());
  if (!token || !TOKEN_PATTERN.test(token)) return null;
  const db = await getDb();
  const [row] = await db
    .select({
      address: sessions.address,
      chainId: sessions.chainId,
      contractOn: sessions.contractOn,
      expiresAt: sessions.expiresAt,
    })
    .from(sessions)
    .where(
      and(
        eq(sessions.tokenHash, hashToken(token)),
        isNull(sessions.revokedAt),
        gt(sessions.expiresAt, sql`now()`),
      ),
    )
    .limit(1);
  if (!row) return null;
  const address = row.address as `0x${string}`;
  return {
    address,
    chainId: row.chainId,
    did: `did:pkh:${row.chainId}:${address}`,
    contractOn: row.contractOn,
    expiresAt: row.expiresAt,
  };
}

/** The live session a request's cookie names, or null; refuses a cross-site unsafe request that uses one. */
export async function sessionOf(request: Request): Promise<(Identity & { expiresAt: Date }) | null> {
  const session = await sessionOfCookies(request.headers.get("cookie"));
  if (session) assertSameOrigin(request);
  return session;
}

/** Ends the session a request's cookie names, if any; a revoked token is refused from then on. */
export async function revokeSession(request: Request): Promise<void> {
  const token = readCookie(request.headers.get("cookie"), sessionCookieName());
  if (!token || !TOKEN_PATTERN.test(token)) return;
  const db = await getDb();
  await db
    .update(sessions)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(sessions.tokenHash, hashToken(token)), isNull(sessions.revokedAt)));
}
