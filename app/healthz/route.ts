import { handle, json } from "@/lib/http/handler";

// Liveness: the process answers. No database or chain call, so a slow dependency never gets a healthy
// process restarted; /readyz says whether it can serve.
export const dynamic = "force-dynamic";

export const GET = handle(async () => json({ status: "ok" }), { logOk: false });
