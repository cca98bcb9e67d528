import "server-only";
import { randomBytes } from "node:crypto";
import { rm } from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";
import { copyEmbeddedDb } from "@/lib/db/client";
import { env } from "@/lib/env";
import { requireBearer } from "@/lib/http/bearer";
import { AppError } from "@/lib/http/errors";
import { download } from "@/lib/http/handler";
import { tarGz } from "./tar";

/**
 * `POST /ops/backup`: the embedded database, taken by the process that holds it (the only one that may
 * open it), as a gzipped tar of its data directory. Behind OPS_TOKEN; 404 while it is unset. Statements
 * wait only while the directory is copied beside it (under a second for 1 GB here); the copy is then
 * packed as it is sent, and removed once sent.
 */
export async function backupResponse(request: Request): Promise<Response> {
  requireBearer(request, env().OPS_TOKEN, "ops");
  const dataDir = path.resolve(env().PGLITE_DIR);
  const copy = path.join(path.dirname(dataDir), `.backup-${randomBytes(6).toString("hex")}`);
  const removeCopy = () => rm(copy, { recursive: true, force: true });
  const copied = await copyEmbeddedDb(copy).catch(async (error: unknown) => {
    await removeCopy();
    throw error;
  });
  if (copied === "postgres") {
    throw new AppError(
      "not-found",
      "This service keeps its data in PostgreSQL: back it up with pg_dump (docs/operations.md).",
    );
  }
  if (copied === "in-memory") throw new AppError("not-found", "PGLITE_DIR is memory://: nothing is on disk.");
  const body = tarGz(copy);
  body.once("close", () => void removeCopy());
  const stamp = new Date().toISOString().replace(/[:.]/g, "-");
  return download(
    Readable.toWeb(body) as ReadableStream<Uint8Array>,
    "application/gzip",
    `pglite-${stamp}.tar.gz`,
  );
}
