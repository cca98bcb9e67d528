import "server-only";
import { createHmac, timingSafeEqual } from "node:crypto";
import { env } from "@/lib/env";
import { AppError } from "@/lib/http/errors";

/** Where a page ended: the last item's creation time and id, newest-first keyset order. */
export type Position = { createdAt: Date; id: string };

function mac(payload: string, scope: string): string {
  return createHmac("sha256", env().APP_SECRET)
    .update(`${scope}\n${payload}`)
    .digest("base64url")
    .slice(0, 22);
}

/** An opaque, tamper-evident cursor, valid only for the query (scope) that produced it. */
export function encodeCursor(position: Position, scope: string): string {
  const payload = Buffer.from(JSON.stringify([position.createdAt.getTime(), position.id])).toString(
    "base64url",
  );
  return `${payload}.${mac(payload, scope)}`;
}

/** Reads a cursor back, refusing one that was altered or belongs to a different query. */
export function decodeCursor(cursor: string, scope: string): Position {
  const invalid = new AppError(
    "invalid-cursor",
    "cursor: not a cursor returned by this query; start again without it.",
    {
      errors: [{ field: "cursor", message: "is not valid for this query" }],
    },
  );
  const [payload, tag] = cursor.split(".");
  if (!payload || !tag) throw invalid;
  const expected = Buffer.from(mac(payload, scope));
  const given = Buffer.from(tag);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) throw invalid;
  try {
    const [ms, id] = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as [number, string];
    if (!Number.isSafeInteger(ms) || typeof id !== "string") throw invalid;
    return { createdAt: new Date(ms), id };
  } catch {
    throw invalid;
  }
}
