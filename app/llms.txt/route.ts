import { handle } from "@/lib/http/handler";
import { API_SECURITY_HEADERS } from "@/lib/http/security-headers";
import { llmsText } from "@/lib/openapi/llms";

export const dynamic = "force-dynamic";

export const GET = handle(
  async () =>
    new Response(llmsText(), {
      headers: {
        ...API_SECURITY_HEADERS,
        "content-type": "text/markdown; charset=utf-8",
        "cache-control": "public, max-age=300",
      },
    }),
);
