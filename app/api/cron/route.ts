import { handle } from "@/lib/http/handler";
import { cronResponse } from "@/lib/ops/cron";

export const dynamic = "force-dynamic";
// A platform's limit on the function; the pass itself stops taking new rows well before (lib/ops/cron.ts).
export const maxDuration = 300;

/** One pass of every background job, behind `Authorization: Bearer <CRON_SECRET>`; 404 when unset. */
export const GET = handle(cronResponse);
export const POST = GET;
