import { handle } from "@/lib/http/handler";
import { backupResponse } from "@/lib/ops/backup";

export const dynamic = "force-dynamic";

/** A backup of the embedded database, behind `Authorization: Bearer <OPS_TOKEN>`; 404 when no token is set. */
export const POST = handle(backupResponse);
