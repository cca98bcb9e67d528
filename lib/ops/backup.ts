import "server-only";
import { dumpEmbeddedDb } from "@/lib/db/client";
import { env } from "@/lib/env";
import { AppError } from "@/lib/http/errors";
import { download } from "@/lib/http/handler";
import { requireBearer } from "./bearer";

/**
 * `POST /ops/backup`: the embedded database, taken by the process that holds it (the only one that may
 * open it), as PGlite's gzipped tarball of its data directory. Behind OPS_TOKEN; 404 while it is unset.
 * Statements wait while the files are copied (about a second per few hundred MB here).
 */
export async function backupResponse(request: Request): Promise<Response> {
  requireBearer(request, env().OPS_TOKEN, "the operator token (OPS_TOKEN)", "ops");
  const tarball = await dumpEmbeddedDb();
  if (!tarball) {
    throw new AppError(
      "not-found",
      "This service keeps its data in PostgreSQL: back it up with pg_dump (docs/operations.md).",
    );
  }
  const stamp = new Date().toISOString().replace(/[:.]/g, "-");
  return download(tarball.stream(), "application/gzip", `pglite-${stamp}.tar.gz`);
}
