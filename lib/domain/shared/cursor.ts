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
  return sign([position.createdAt.getTime(), position.id], scope);
}

function invalidCursor() {
  return new AppError(
    "invalid-cursor",
    "cursor: not a cursor returned by this query; start again without it.",
    {
      errors: [{ field: "cursor", message: "is not valid for this query" }],
    },
  );
}

/** The payload of a cursor this service signed for `scope`; refuses one altered or from another query. */
function payloadOf(cursor: string, scope: string): unknown {
  const [payload, tag] = cursor.split(".");
  if (!payload || !tag) throw invalidCursor();
  const expected = Buffer.from(mac(payload, scope));
  const given = Buffer.from(tag);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) throw invalidCursor();
  try {
    return JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
  } catch {
    throw invalidCursor();
  }
}

const sign = (value: unknown, scope: string) => {
  const payload = Buffer.from(JSON.stringify(value)).toString("base64url");
  return `${payload}.${mac(payload, scope)}`;
};

/** Reads a cursor back, refusing one that was altered or belongs to a different query. */
export function decodeCursor(cursor: string, scope: string): Position {
  const value = payloadOf(cursor, scope);
  if (!Array.isArray(value) || value.length !== 2) throw invalidCursor();
  const [ms, id] = value as [unknown, unknown];
  if (typeof ms !== "number" || !Number.isSafeInteger(ms) || typeof id !== "string") throw invalidCursor();
  return { createdAt: new Date(ms), id };
}

/** A cursor for results in an order with no stable key (relevance): how many were already given. */
export function encodeOffsetCursor(offset: number, scope: string): string {
  return sign({ offset }, scope);
}

export function decodeOffsetCursor(cursor: string, scope: string): number {
  const value = payloadOf(cursor, scope) as { offset?: unknown } | null;
  const offset = value?.offset;
  if (typeof offset !== "number" || !Number.isSafeInteger(offset) || offset < 0) throw invalidCursor();
  return offset;
}
