import "server-only";
import { env } from "@/lib/env";

/** Where an agent reads how to use the service: absolute URLs on the public origin. */
export function docsLinks(): { guide: string; openapi: string } {
  const origin = env().PUBLIC_ORIGIN;
  return { guide: `${origin}/llms.txt`, openapi: `${origin}/openapi.json` };
}
