import { handle, json } from "@/lib/http/handler";
import { openApiDocument } from "@/lib/openapi/document";

// Built from the runtime configuration (origin, networks, recipients), never at build time.
export const dynamic = "force-dynamic";

export const GET = handle(async () =>
  json(openApiDocument(), { headers: { "cache-control": "public, max-age=300" } }),
);
