import { handle, json } from "@/lib/http/handler";
import { x402Discovery } from "@/lib/openapi/well-known";

export const dynamic = "force-dynamic";

export const GET = handle(async () =>
  json(x402Discovery(), { headers: { "cache-control": "public, max-age=300" } }),
);
